-- contagens (0021) holds the agenda's events per region (dono '') and per creator (dono = user_id),
-- kept by these triggers whatever writes the rows (a route, an import, a script, a console): the
-- agenda list's unfiltered X-Total-Count reads one row instead of one index entry per event
-- (services/agenda.ts listCount; docs/architecture.md, "Kept by triggers"). Written by hand
-- (drizzle-kit generate --custom).
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `n`)
  SELECT 'agenda', `regiao`, '', count(*) FROM `agenda` GROUP BY `regiao`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `n`)
  SELECT 'agenda', `regiao`, `user_id`, count(*) FROM `agenda` WHERE `user_id` IS NOT NULL GROUP BY `regiao`, `user_id`;
--> statement-breakpoint
CREATE TRIGGER `agenda_contagem_insert` AFTER INSERT ON `agenda`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `n`) VALUES ('agenda', NEW.`regiao`, '', 1)
    ON CONFLICT (`tabela`, `regiao`, `dono`) DO UPDATE SET `n` = `n` + 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `n`)
    SELECT 'agenda', NEW.`regiao`, NEW.`user_id`, 1 WHERE NEW.`user_id` IS NOT NULL
    ON CONFLICT (`tabela`, `regiao`, `dono`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- Also fires for user_id's ON DELETE SET NULL (the creator's account deleted): its events leave its row.
CREATE TRIGGER `agenda_contagem_update` AFTER UPDATE OF `regiao`, `user_id` ON `agenda`
WHEN OLD.`regiao` <> NEW.`regiao` OR OLD.`user_id` IS NOT NEW.`user_id`
BEGIN
  UPDATE `contagens` SET `n` = `n` - 1
  WHERE `tabela` = 'agenda' AND `regiao` = OLD.`regiao` AND `dono` IN ('', OLD.`user_id`);
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `n`) VALUES ('agenda', NEW.`regiao`, '', 1)
    ON CONFLICT (`tabela`, `regiao`, `dono`) DO UPDATE SET `n` = `n` + 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `n`)
    SELECT 'agenda', NEW.`regiao`, NEW.`user_id`, 1 WHERE NEW.`user_id` IS NOT NULL
    ON CONFLICT (`tabela`, `regiao`, `dono`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `agenda_contagem_delete` AFTER DELETE ON `agenda`
BEGIN
  UPDATE `contagens` SET `n` = `n` - 1
  WHERE `tabela` = 'agenda' AND `regiao` = OLD.`regiao` AND `dono` IN ('', OLD.`user_id`);
END;
