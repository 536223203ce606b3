-- contagens (0021) is kept by these triggers whatever writes the rows (a route, an import, a script,
-- a console), so that a list's unfiltered X-Total-Count reads one row, or one per day, instead of one
-- index entry per counted row (docs/architecture.md, "Kept by triggers"). Written by hand
-- (drizzle-kit generate --custom). Every change, +1 or -1, is an upsert on the whole primary key: a -1
-- that runs before the +1 of the same key (the order in which one statement's triggers fire is not
-- documented) leaves -1 for that +1 to cancel, never a lost decrement.
--
-- agenda: the events per region (dono '') and per creator (dono = user_id); services/agenda.ts listCount.
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'agenda', `regiao`, '', '', count(*) FROM `agenda` GROUP BY `regiao`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'agenda', `regiao`, `user_id`, '', count(*) FROM `agenda` WHERE `user_id` IS NOT NULL GROUP BY `regiao`, `user_id`;
--> statement-breakpoint
CREATE TRIGGER `agenda_contagem_insert` AFTER INSERT ON `agenda`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('agenda', NEW.`regiao`, '', '', 1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'agenda', NEW.`regiao`, NEW.`user_id`, '', 1 WHERE NEW.`user_id` IS NOT NULL
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- Also fires for user_id's ON DELETE SET NULL (the creator's account deleted): its events leave its row.
CREATE TRIGGER `agenda_contagem_update` AFTER UPDATE OF `regiao`, `user_id` ON `agenda`
WHEN OLD.`regiao` <> NEW.`regiao` OR OLD.`user_id` IS NOT NEW.`user_id`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('agenda', OLD.`regiao`, '', '', -1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'agenda', OLD.`regiao`, OLD.`user_id`, '', -1 WHERE OLD.`user_id` IS NOT NULL
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('agenda', NEW.`regiao`, '', '', 1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'agenda', NEW.`regiao`, NEW.`user_id`, '', 1 WHERE NEW.`user_id` IS NOT NULL
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `agenda_contagem_delete` AFTER DELETE ON `agenda`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('agenda', OLD.`regiao`, '', '', -1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'agenda', OLD.`regiao`, OLD.`user_id`, '', -1 WHERE OLD.`user_id` IS NOT NULL
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
END;
--> statement-breakpoint
-- vagas: the team rows with places open (publicar = 1 AND quantidade > aceitos: agenda_equipe_vagas_idx's
-- rows) per region, function (dono) and event day (dia); services/vagas.ts. A row's kept regiao,
-- data_evento and aceitos (0018) change by update, so the update trigger moves its 1 from the row's old
-- key to its new one (a new row's are set by 0018's insert trigger, an update: regiao '' counts nowhere).
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'vagas', `regiao`, `funcao_id`, `data_evento`, count(*) FROM `agenda_equipe`
  WHERE `publicar` = 1 AND `quantidade` > `aceitos` AND `regiao` <> '' GROUP BY `regiao`, `funcao_id`, `data_evento`;
--> statement-breakpoint
CREATE TRIGGER `agenda_equipe_contagem_insert` AFTER INSERT ON `agenda_equipe`
WHEN NEW.`publicar` = 1 AND NEW.`quantidade` > NEW.`aceitos` AND NEW.`regiao` <> ''
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('vagas', NEW.`regiao`, NEW.`funcao_id`, NEW.`data_evento`, 1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `agenda_equipe_contagem_update`
AFTER UPDATE OF `publicar`, `quantidade`, `aceitos`, `regiao`, `funcao_id`, `data_evento` ON `agenda_equipe`
WHEN (OLD.`publicar` = 1 AND OLD.`quantidade` > OLD.`aceitos` AND OLD.`regiao` <> '')
  OR (NEW.`publicar` = 1 AND NEW.`quantidade` > NEW.`aceitos` AND NEW.`regiao` <> '')
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'vagas', OLD.`regiao`, OLD.`funcao_id`, OLD.`data_evento`, -1
    WHERE OLD.`publicar` = 1 AND OLD.`quantidade` > OLD.`aceitos` AND OLD.`regiao` <> ''
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'vagas', NEW.`regiao`, NEW.`funcao_id`, NEW.`data_evento`, 1
    WHERE NEW.`publicar` = 1 AND NEW.`quantidade` > NEW.`aceitos` AND NEW.`regiao` <> ''
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- Fires for the cascades too (an event deleted takes its team).
CREATE TRIGGER `agenda_equipe_contagem_delete` AFTER DELETE ON `agenda_equipe`
WHEN OLD.`publicar` = 1 AND OLD.`quantidade` > OLD.`aceitos` AND OLD.`regiao` <> ''
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('vagas', OLD.`regiao`, OLD.`funcao_id`, OLD.`data_evento`, -1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
END;
