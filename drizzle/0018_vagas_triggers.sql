-- agenda_equipe's regiao, data_evento and aceitos (0017) are kept by these triggers, whatever writes
-- the rows (a route, an import, a script, a console): the job listings' total counts them from
-- agenda_equipe_vagas_idx alone (docs/architecture.md, "Kept by triggers"). The acceptance's own
-- guards still count convites (services/convites.ts quotaOpenFor). Written by hand (drizzle-kit generate --custom).
UPDATE `agenda_equipe` SET
  `regiao` = (SELECT a.`regiao` FROM `agenda` a WHERE a.`id` = `agenda_equipe`.`agenda_id`),
  `data_evento` = (SELECT a.`data_evento` FROM `agenda` a WHERE a.`id` = `agenda_equipe`.`agenda_id`),
  `aceitos` = (SELECT count(*) FROM `convites` c WHERE c.`agenda_id` = `agenda_equipe`.`agenda_id`
    AND c.`funcao_id` = `agenda_equipe`.`funcao_id` AND c.`status` = 'aceito');
--> statement-breakpoint
-- A team row (setEquipe replaces them all) starts from its event and the invitations already accepted.
CREATE TRIGGER `agenda_equipe_vaga_insert` AFTER INSERT ON `agenda_equipe`
BEGIN
  UPDATE `agenda_equipe` SET
    `regiao` = (SELECT a.`regiao` FROM `agenda` a WHERE a.`id` = NEW.`agenda_id`),
    `data_evento` = (SELECT a.`data_evento` FROM `agenda` a WHERE a.`id` = NEW.`agenda_id`),
    `aceitos` = (SELECT count(*) FROM `convites` c WHERE c.`agenda_id` = NEW.`agenda_id`
      AND c.`funcao_id` = NEW.`funcao_id` AND c.`status` = 'aceito')
  WHERE `agenda_id` = NEW.`agenda_id` AND `funcao_id` = NEW.`funcao_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `agenda_equipe_vaga_rekey` AFTER UPDATE OF `agenda_id`, `funcao_id` ON `agenda_equipe`
BEGIN
  UPDATE `agenda_equipe` SET
    `regiao` = (SELECT a.`regiao` FROM `agenda` a WHERE a.`id` = NEW.`agenda_id`),
    `data_evento` = (SELECT a.`data_evento` FROM `agenda` a WHERE a.`id` = NEW.`agenda_id`),
    `aceitos` = (SELECT count(*) FROM `convites` c WHERE c.`agenda_id` = NEW.`agenda_id`
      AND c.`funcao_id` = NEW.`funcao_id` AND c.`status` = 'aceito')
  WHERE `agenda_id` = NEW.`agenda_id` AND `funcao_id` = NEW.`funcao_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `agenda_vaga_update` AFTER UPDATE OF `regiao`, `data_evento` ON `agenda`
WHEN OLD.`regiao` <> NEW.`regiao` OR OLD.`data_evento` <> NEW.`data_evento`
BEGIN
  UPDATE `agenda_equipe` SET `regiao` = NEW.`regiao`, `data_evento` = NEW.`data_evento` WHERE `agenda_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `convites_aceitos_insert` AFTER INSERT ON `convites` WHEN NEW.`status` = 'aceito'
BEGIN
  UPDATE `agenda_equipe` SET `aceitos` = `aceitos` + 1
  WHERE `agenda_id` = NEW.`agenda_id` AND `funcao_id` = NEW.`funcao_id`;
END;
--> statement-breakpoint
-- Fires for the cascades too (an event or a profile deleted): the event's rows may be gone already.
CREATE TRIGGER `convites_aceitos_delete` AFTER DELETE ON `convites` WHEN OLD.`status` = 'aceito'
BEGIN
  UPDATE `agenda_equipe` SET `aceitos` = `aceitos` - 1
  WHERE `agenda_id` = OLD.`agenda_id` AND `funcao_id` = OLD.`funcao_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `convites_aceitos_update` AFTER UPDATE OF `status`, `agenda_id`, `funcao_id` ON `convites`
WHEN (OLD.`status` = 'aceito' OR NEW.`status` = 'aceito')
  AND (OLD.`status` IS NOT NEW.`status` OR OLD.`agenda_id` <> NEW.`agenda_id` OR OLD.`funcao_id` <> NEW.`funcao_id`)
BEGIN
  UPDATE `agenda_equipe` SET `aceitos` = `aceitos` - 1
  WHERE OLD.`status` = 'aceito' AND `agenda_id` = OLD.`agenda_id` AND `funcao_id` = OLD.`funcao_id`;
  UPDATE `agenda_equipe` SET `aceitos` = `aceitos` + 1
  WHERE NEW.`status` = 'aceito' AND `agenda_id` = NEW.`agenda_id` AND `funcao_id` = NEW.`funcao_id`;
END;
