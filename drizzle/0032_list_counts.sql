-- The paged lists' totals an administrator asks for most, in contagens (0021; dia ''), so that a
-- page's X-Total-Count reads one row instead of every matching row (docs/architecture.md, "Kept by
-- triggers"; services pick the key in chamados.ts, pacotes.ts, pedidos.ts, lancamentos.ts):
-- - chamados: tickets per region (dono '') and per region and status (dono = status);
-- - pacotes: packages per region (dono '') and active ones (dono 'ativos');
-- - pedidos: orders per region (dono ''), per status, per FOT record (dono = fot_id) and per FOT
--   record and status (dono = fot_id || '/' || status);
-- - lancamentos: finance entries per region (dono ''), per FOT record and per event (dono = the id).
-- Each trigger moves a row's keys as one upsert per side (n + excluded.n, so keys that an update
-- leaves alone net 0), whatever order the triggers of one statement run in, as in 0022. At most four
-- keys per side (D1 allows five terms in a compound SELECT). Written by hand (drizzle-kit generate --custom).
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'chamados', `regiao`, '', '', count(*) FROM `chamados` GROUP BY `regiao`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'chamados', `regiao`, `status`, '', count(*) FROM `chamados` GROUP BY `regiao`, `status`;
--> statement-breakpoint
CREATE TRIGGER `chamados_contagem_insert` AFTER INSERT ON `chamados`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'chamados', NEW.`regiao`, k.`dono`, '', 1 FROM (SELECT '' AS `dono` UNION ALL SELECT NEW.`status` AS `dono`) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `chamados_contagem_update` AFTER UPDATE OF `regiao`, `status` ON `chamados`
WHEN OLD.`regiao` IS NOT NEW.`regiao` OR OLD.`status` IS NOT NEW.`status`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'chamados', OLD.`regiao`, k.`dono`, '', -1 FROM (SELECT '' AS `dono` UNION ALL SELECT OLD.`status` AS `dono`) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'chamados', NEW.`regiao`, k.`dono`, '', 1 FROM (SELECT '' AS `dono` UNION ALL SELECT NEW.`status` AS `dono`) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `chamados_contagem_delete` AFTER DELETE ON `chamados`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'chamados', OLD.`regiao`, k.`dono`, '', -1 FROM (SELECT '' AS `dono` UNION ALL SELECT OLD.`status` AS `dono`) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'pacotes', `regiao`, '', '', count(*) FROM `pacotes` GROUP BY `regiao`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'pacotes', `regiao`, 'ativos', '', count(*) FROM `pacotes` WHERE `ativo` = 1 GROUP BY `regiao`;
--> statement-breakpoint
CREATE TRIGGER `pacotes_contagem_insert` AFTER INSERT ON `pacotes`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'pacotes', NEW.`regiao`, k.`dono`, '', 1 FROM (SELECT '' AS `dono` UNION ALL SELECT 'ativos' AS `dono` WHERE NEW.`ativo` = 1) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `pacotes_contagem_update` AFTER UPDATE OF `regiao`, `ativo` ON `pacotes`
WHEN OLD.`regiao` IS NOT NEW.`regiao` OR OLD.`ativo` IS NOT NEW.`ativo`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'pacotes', OLD.`regiao`, k.`dono`, '', -1 FROM (SELECT '' AS `dono` UNION ALL SELECT 'ativos' AS `dono` WHERE OLD.`ativo` = 1) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'pacotes', NEW.`regiao`, k.`dono`, '', 1 FROM (SELECT '' AS `dono` UNION ALL SELECT 'ativos' AS `dono` WHERE NEW.`ativo` = 1) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `pacotes_contagem_delete` AFTER DELETE ON `pacotes`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'pacotes', OLD.`regiao`, k.`dono`, '', -1 FROM (SELECT '' AS `dono` UNION ALL SELECT 'ativos' AS `dono` WHERE OLD.`ativo` = 1) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'pedidos', `regiao`, '', '', count(*) FROM `pedidos` GROUP BY `regiao`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'pedidos', `regiao`, `status`, '', count(*) FROM `pedidos` GROUP BY `regiao`, `status`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'pedidos', `regiao`, `fot_id`, '', count(*) FROM `pedidos` GROUP BY `regiao`, `fot_id`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'pedidos', `regiao`, `fot_id` || '/' || `status`, '', count(*) FROM `pedidos` GROUP BY `regiao`, `fot_id` || '/' || `status`;
--> statement-breakpoint
CREATE TRIGGER `pedidos_contagem_insert` AFTER INSERT ON `pedidos`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'pedidos', NEW.`regiao`, k.`dono`, '', 1 FROM (SELECT '' AS `dono` UNION ALL SELECT NEW.`status` AS `dono` UNION ALL SELECT NEW.`fot_id` AS `dono` UNION ALL SELECT NEW.`fot_id` || '/' || NEW.`status` AS `dono`) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `pedidos_contagem_update` AFTER UPDATE OF `regiao`, `fot_id`, `status` ON `pedidos`
WHEN OLD.`regiao` IS NOT NEW.`regiao` OR OLD.`fot_id` IS NOT NEW.`fot_id` OR OLD.`status` IS NOT NEW.`status`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'pedidos', OLD.`regiao`, k.`dono`, '', -1 FROM (SELECT '' AS `dono` UNION ALL SELECT OLD.`status` AS `dono` UNION ALL SELECT OLD.`fot_id` AS `dono` UNION ALL SELECT OLD.`fot_id` || '/' || OLD.`status` AS `dono`) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'pedidos', NEW.`regiao`, k.`dono`, '', 1 FROM (SELECT '' AS `dono` UNION ALL SELECT NEW.`status` AS `dono` UNION ALL SELECT NEW.`fot_id` AS `dono` UNION ALL SELECT NEW.`fot_id` || '/' || NEW.`status` AS `dono`) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `pedidos_contagem_delete` AFTER DELETE ON `pedidos`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'pedidos', OLD.`regiao`, k.`dono`, '', -1 FROM (SELECT '' AS `dono` UNION ALL SELECT OLD.`status` AS `dono` UNION ALL SELECT OLD.`fot_id` AS `dono` UNION ALL SELECT OLD.`fot_id` || '/' || OLD.`status` AS `dono`) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'lancamentos', `regiao`, '', '', count(*) FROM `lancamentos` GROUP BY `regiao`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'lancamentos', `regiao`, `fot_id`, '', count(*) FROM `lancamentos` WHERE `fot_id` IS NOT NULL GROUP BY `regiao`, `fot_id`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'lancamentos', `regiao`, `agenda_id`, '', count(*) FROM `lancamentos` WHERE `agenda_id` IS NOT NULL GROUP BY `regiao`, `agenda_id`;
--> statement-breakpoint
CREATE TRIGGER `lancamentos_contagem_insert` AFTER INSERT ON `lancamentos`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'lancamentos', NEW.`regiao`, k.`dono`, '', 1 FROM (SELECT '' AS `dono` UNION ALL SELECT NEW.`fot_id` AS `dono` WHERE NEW.`fot_id` IS NOT NULL UNION ALL SELECT NEW.`agenda_id` AS `dono` WHERE NEW.`agenda_id` IS NOT NULL) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `lancamentos_contagem_update` AFTER UPDATE OF `regiao`, `fot_id`, `agenda_id` ON `lancamentos`
WHEN OLD.`regiao` IS NOT NEW.`regiao` OR OLD.`fot_id` IS NOT NEW.`fot_id` OR OLD.`agenda_id` IS NOT NEW.`agenda_id`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'lancamentos', OLD.`regiao`, k.`dono`, '', -1 FROM (SELECT '' AS `dono` UNION ALL SELECT OLD.`fot_id` AS `dono` WHERE OLD.`fot_id` IS NOT NULL UNION ALL SELECT OLD.`agenda_id` AS `dono` WHERE OLD.`agenda_id` IS NOT NULL) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'lancamentos', NEW.`regiao`, k.`dono`, '', 1 FROM (SELECT '' AS `dono` UNION ALL SELECT NEW.`fot_id` AS `dono` WHERE NEW.`fot_id` IS NOT NULL UNION ALL SELECT NEW.`agenda_id` AS `dono` WHERE NEW.`agenda_id` IS NOT NULL) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `lancamentos_contagem_delete` AFTER DELETE ON `lancamentos`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'lancamentos', OLD.`regiao`, k.`dono`, '', -1 FROM (SELECT '' AS `dono` UNION ALL SELECT OLD.`fot_id` AS `dono` WHERE OLD.`fot_id` IS NOT NULL UNION ALL SELECT OLD.`agenda_id` AS `dono` WHERE OLD.`agenda_id` IS NOT NULL) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
