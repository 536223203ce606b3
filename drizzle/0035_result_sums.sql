-- The finance results' sums in somas_lancamentos (0034), kept by triggers on lancamentos whatever
-- writes the rows (a route, an import, a payout, a cascade), so that GET /api/financeiro/resultado
-- reads one row per category and tipo of its scope (per day of its period) instead of every entry
-- (services/lancamentos.ts resultadoSums; docs/architecture.md, "Kept by triggers"). An entry counts
-- when its status is previsto or pago and it is not a mirror (origem estorno), under its day, its
-- event, its FOT record and its event's FOT record (once if they are the same).
-- lancamentos.agenda_fot_id copies its event's fot_id, kept here, so that the sums move with the
-- row's own values: an event deleted sets agenda_id null (ON DELETE SET NULL) after the event is
-- gone, and an event moved to another record moves its entries' copy. Each side is one upsert that
-- adds (new values) or subtracts (old values), so the sums hold whatever order the triggers of one
-- statement run in, as in 0022. Written by hand (drizzle-kit generate --custom).
UPDATE `lancamentos` SET `agenda_fot_id` = (SELECT a.`fot_id` FROM `agenda` a WHERE a.`id` = `lancamentos`.`agenda_id`)
  WHERE `agenda_id` IS NOT NULL;
--> statement-breakpoint
INSERT INTO `somas_lancamentos` (`regiao`, `escopo`, `chave`, `categoria_id`, `tipo`, `previsto`, `realizado`)
  SELECT `regiao`, 'dia', `vencimento`, `categoria_id`, `tipo`, sum(iif(`status` = 'previsto', `valor_centavos`, 0)), sum(iif(`status` = 'pago', `valor_centavos`, 0))
  FROM `lancamentos` WHERE `status` IN ('previsto', 'pago') AND `origem` <> 'estorno'
  GROUP BY `regiao`, `vencimento`, `categoria_id`, `tipo`;
--> statement-breakpoint
INSERT INTO `somas_lancamentos` (`regiao`, `escopo`, `chave`, `categoria_id`, `tipo`, `previsto`, `realizado`)
  SELECT `regiao`, 'evento', `agenda_id`, `categoria_id`, `tipo`, sum(iif(`status` = 'previsto', `valor_centavos`, 0)), sum(iif(`status` = 'pago', `valor_centavos`, 0))
  FROM `lancamentos` WHERE `status` IN ('previsto', 'pago') AND `origem` <> 'estorno' AND `agenda_id` IS NOT NULL
  GROUP BY `regiao`, `agenda_id`, `categoria_id`, `tipo`;
--> statement-breakpoint
INSERT INTO `somas_lancamentos` (`regiao`, `escopo`, `chave`, `categoria_id`, `tipo`, `previsto`, `realizado`)
  SELECT `regiao`, 'fot', `f`, `categoria_id`, `tipo`, sum(iif(`status` = 'previsto', `valor_centavos`, 0)), sum(iif(`status` = 'pago', `valor_centavos`, 0))
  FROM (SELECT *, `fot_id` AS `f` FROM `lancamentos` WHERE `fot_id` IS NOT NULL
    UNION ALL SELECT *, `agenda_fot_id` FROM `lancamentos` WHERE `agenda_fot_id` IS NOT NULL AND `agenda_fot_id` IS NOT `fot_id`)
  WHERE `status` IN ('previsto', 'pago') AND `origem` <> 'estorno'
  GROUP BY `regiao`, `f`, `categoria_id`, `tipo`;
--> statement-breakpoint
-- A new entry counts with the values it was inserted with, then takes its event's FOT record (the update trigger moves its sums).
CREATE TRIGGER `lancamentos_somas_insert` AFTER INSERT ON `lancamentos`
BEGIN
  INSERT INTO `somas_lancamentos` (`regiao`, `escopo`, `chave`, `categoria_id`, `tipo`, `previsto`, `realizado`)
    SELECT NEW.`regiao`, k.`escopo`, k.`chave`, NEW.`categoria_id`, NEW.`tipo`,
      iif(NEW.`status` = 'previsto', NEW.`valor_centavos`, 0), iif(NEW.`status` = 'pago', NEW.`valor_centavos`, 0)
    FROM (SELECT 'dia' AS `escopo`, NEW.`vencimento` AS `chave`
      UNION ALL SELECT 'evento', NEW.`agenda_id` WHERE NEW.`agenda_id` IS NOT NULL
      UNION ALL SELECT 'fot', NEW.`fot_id` WHERE NEW.`fot_id` IS NOT NULL
      UNION ALL SELECT 'fot', NEW.`agenda_fot_id` WHERE NEW.`agenda_fot_id` IS NOT NULL AND NEW.`agenda_fot_id` IS NOT NEW.`fot_id`) k
    WHERE NEW.`status` IN ('previsto', 'pago') AND NEW.`origem` <> 'estorno'
    ON CONFLICT (`regiao`, `escopo`, `chave`, `categoria_id`, `tipo`) DO UPDATE SET `previsto` = `previsto` + excluded.`previsto`, `realizado` = `realizado` + excluded.`realizado`;
  UPDATE `lancamentos` SET `agenda_fot_id` = (SELECT a.`fot_id` FROM `agenda` a WHERE a.`id` = NEW.`agenda_id`)
    WHERE `id` = NEW.`id` AND `agenda_fot_id` IS NOT (SELECT a.`fot_id` FROM `agenda` a WHERE a.`id` = NEW.`agenda_id`);
END;
--> statement-breakpoint
-- Both sides in one upsert per key: a status change (pagar, cancelar) writes each key once; a change that moves nothing writes nothing.
CREATE TRIGGER `lancamentos_somas_update` AFTER UPDATE OF `regiao`, `categoria_id`, `tipo`, `status`, `valor_centavos`, `vencimento`, `fot_id`, `agenda_id`, `agenda_fot_id`, `origem` ON `lancamentos`
WHEN (OLD.`status` IN ('previsto', 'pago') AND OLD.`origem` <> 'estorno') OR (NEW.`status` IN ('previsto', 'pago') AND NEW.`origem` <> 'estorno')
BEGIN
  INSERT INTO `somas_lancamentos` (`regiao`, `escopo`, `chave`, `categoria_id`, `tipo`, `previsto`, `realizado`)
    SELECT `regiao`, `escopo`, `chave`, `categoria_id`, `tipo`, sum(`previsto`), sum(`realizado`)
    FROM (SELECT * FROM (SELECT OLD.`regiao` AS `regiao`, k.`escopo` AS `escopo`, k.`chave` AS `chave`, OLD.`categoria_id` AS `categoria_id`, OLD.`tipo` AS `tipo`,
          -iif(OLD.`status` = 'previsto', OLD.`valor_centavos`, 0) AS `previsto`, -iif(OLD.`status` = 'pago', OLD.`valor_centavos`, 0) AS `realizado`
        FROM (SELECT 'dia' AS `escopo`, OLD.`vencimento` AS `chave`
          UNION ALL SELECT 'evento', OLD.`agenda_id` WHERE OLD.`agenda_id` IS NOT NULL
          UNION ALL SELECT 'fot', OLD.`fot_id` WHERE OLD.`fot_id` IS NOT NULL
          UNION ALL SELECT 'fot', OLD.`agenda_fot_id` WHERE OLD.`agenda_fot_id` IS NOT NULL AND OLD.`agenda_fot_id` IS NOT OLD.`fot_id`) k
        WHERE OLD.`status` IN ('previsto', 'pago') AND OLD.`origem` <> 'estorno')
      UNION ALL SELECT * FROM (SELECT NEW.`regiao` AS `regiao`, k.`escopo` AS `escopo`, k.`chave` AS `chave`, NEW.`categoria_id` AS `categoria_id`, NEW.`tipo` AS `tipo`,
          iif(NEW.`status` = 'previsto', NEW.`valor_centavos`, 0) AS `previsto`, iif(NEW.`status` = 'pago', NEW.`valor_centavos`, 0) AS `realizado`
        FROM (SELECT 'dia' AS `escopo`, NEW.`vencimento` AS `chave`
          UNION ALL SELECT 'evento', NEW.`agenda_id` WHERE NEW.`agenda_id` IS NOT NULL
          UNION ALL SELECT 'fot', NEW.`fot_id` WHERE NEW.`fot_id` IS NOT NULL
          UNION ALL SELECT 'fot', NEW.`agenda_fot_id` WHERE NEW.`agenda_fot_id` IS NOT NULL AND NEW.`agenda_fot_id` IS NOT NEW.`fot_id`) k
        WHERE NEW.`status` IN ('previsto', 'pago') AND NEW.`origem` <> 'estorno'))
    WHERE true GROUP BY `regiao`, `escopo`, `chave`, `categoria_id`, `tipo` HAVING sum(`previsto`) <> 0 OR sum(`realizado`) <> 0
    ON CONFLICT (`regiao`, `escopo`, `chave`, `categoria_id`, `tipo`) DO UPDATE SET `previsto` = `previsto` + excluded.`previsto`, `realizado` = `realizado` + excluded.`realizado`;
END;
--> statement-breakpoint
-- An entry moved to another event (or its event deleted: ON DELETE SET NULL) takes that event's FOT record.
CREATE TRIGGER `lancamentos_agenda_fot` AFTER UPDATE OF `agenda_id` ON `lancamentos`
BEGIN
  UPDATE `lancamentos` SET `agenda_fot_id` = (SELECT a.`fot_id` FROM `agenda` a WHERE a.`id` = NEW.`agenda_id`)
    WHERE `id` = NEW.`id` AND `agenda_fot_id` IS NOT (SELECT a.`fot_id` FROM `agenda` a WHERE a.`id` = NEW.`agenda_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `lancamentos_somas_delete` AFTER DELETE ON `lancamentos`
BEGIN
  INSERT INTO `somas_lancamentos` (`regiao`, `escopo`, `chave`, `categoria_id`, `tipo`, `previsto`, `realizado`)
    SELECT OLD.`regiao`, k.`escopo`, k.`chave`, OLD.`categoria_id`, OLD.`tipo`,
      -iif(OLD.`status` = 'previsto', OLD.`valor_centavos`, 0), -iif(OLD.`status` = 'pago', OLD.`valor_centavos`, 0)
    FROM (SELECT 'dia' AS `escopo`, OLD.`vencimento` AS `chave`
      UNION ALL SELECT 'evento', OLD.`agenda_id` WHERE OLD.`agenda_id` IS NOT NULL
      UNION ALL SELECT 'fot', OLD.`fot_id` WHERE OLD.`fot_id` IS NOT NULL
      UNION ALL SELECT 'fot', OLD.`agenda_fot_id` WHERE OLD.`agenda_fot_id` IS NOT NULL AND OLD.`agenda_fot_id` IS NOT OLD.`fot_id`) k
    WHERE OLD.`status` IN ('previsto', 'pago') AND OLD.`origem` <> 'estorno'
    ON CONFLICT (`regiao`, `escopo`, `chave`, `categoria_id`, `tipo`) DO UPDATE SET `previsto` = `previsto` + excluded.`previsto`, `realizado` = `realizado` + excluded.`realizado`;
END;
--> statement-breakpoint
-- An event moved to another FOT record moves its entries' copy (and so their sums).
CREATE TRIGGER `agenda_lancamentos_fot` AFTER UPDATE OF `fot_id` ON `agenda` WHEN OLD.`fot_id` IS NOT NEW.`fot_id`
BEGIN
  UPDATE `lancamentos` SET `agenda_fot_id` = NEW.`fot_id` WHERE `agenda_id` = NEW.`id`;
END;
