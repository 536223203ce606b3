-- agenda_equipe's pendentes and espera (0026) kept by triggers whatever writes the rows, as 0018 keeps
-- aceitos: a team is read from its own rows, without counting the event's invitations
-- (services/convites.ts equipeQuery; docs/architecture.md, "Kept by triggers"). They set only these
-- two columns, so neither 0018's nor 0022's triggers fire for them. A team row's counts are recounted
-- when it is inserted or re-keyed; an invitation moves a count by one on the team row it belongs to
-- (no row, nothing to keep). Written by hand (drizzle-kit generate --custom).
UPDATE `agenda_equipe` SET
  `pendentes` = (SELECT count(*) FROM `convites` c WHERE c.`agenda_id` = `agenda_equipe`.`agenda_id`
    AND c.`funcao_id` = `agenda_equipe`.`funcao_id` AND c.`status` IN ('pendente', 'solicitado')),
  `espera` = (SELECT count(*) FROM `convites` c WHERE c.`agenda_id` = `agenda_equipe`.`agenda_id`
    AND c.`funcao_id` = `agenda_equipe`.`funcao_id` AND c.`status` = 'espera');
--> statement-breakpoint
CREATE TRIGGER `agenda_equipe_espera_insert` AFTER INSERT ON `agenda_equipe`
BEGIN
  UPDATE `agenda_equipe` SET
    `pendentes` = (SELECT count(*) FROM `convites` c WHERE c.`agenda_id` = NEW.`agenda_id`
      AND c.`funcao_id` = NEW.`funcao_id` AND c.`status` IN ('pendente', 'solicitado')),
    `espera` = (SELECT count(*) FROM `convites` c WHERE c.`agenda_id` = NEW.`agenda_id`
      AND c.`funcao_id` = NEW.`funcao_id` AND c.`status` = 'espera')
  WHERE `agenda_id` = NEW.`agenda_id` AND `funcao_id` = NEW.`funcao_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `agenda_equipe_espera_rekey` AFTER UPDATE OF `agenda_id`, `funcao_id` ON `agenda_equipe`
BEGIN
  UPDATE `agenda_equipe` SET
    `pendentes` = (SELECT count(*) FROM `convites` c WHERE c.`agenda_id` = NEW.`agenda_id`
      AND c.`funcao_id` = NEW.`funcao_id` AND c.`status` IN ('pendente', 'solicitado')),
    `espera` = (SELECT count(*) FROM `convites` c WHERE c.`agenda_id` = NEW.`agenda_id`
      AND c.`funcao_id` = NEW.`funcao_id` AND c.`status` = 'espera')
  WHERE `agenda_id` = NEW.`agenda_id` AND `funcao_id` = NEW.`funcao_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `convites_espera_insert` AFTER INSERT ON `convites`
WHEN NEW.`status` IN ('pendente', 'solicitado', 'espera')
BEGIN
  UPDATE `agenda_equipe` SET `pendentes` = `pendentes` + (NEW.`status` <> 'espera'),
    `espera` = `espera` + (NEW.`status` = 'espera')
  WHERE `agenda_id` = NEW.`agenda_id` AND `funcao_id` = NEW.`funcao_id`;
END;
--> statement-breakpoint
-- Fires for the cascades too (an event or a profile deleted): the event's rows may be gone already.
CREATE TRIGGER `convites_espera_delete` AFTER DELETE ON `convites`
WHEN OLD.`status` IN ('pendente', 'solicitado', 'espera')
BEGIN
  UPDATE `agenda_equipe` SET `pendentes` = `pendentes` - (OLD.`status` <> 'espera'),
    `espera` = `espera` - (OLD.`status` = 'espera')
  WHERE `agenda_id` = OLD.`agenda_id` AND `funcao_id` = OLD.`funcao_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `convites_espera_update` AFTER UPDATE OF `status`, `agenda_id`, `funcao_id` ON `convites`
WHEN (OLD.`status` IN ('pendente', 'solicitado', 'espera') OR NEW.`status` IN ('pendente', 'solicitado', 'espera'))
  AND (OLD.`status` IS NOT NEW.`status` OR OLD.`agenda_id` <> NEW.`agenda_id` OR OLD.`funcao_id` <> NEW.`funcao_id`)
BEGIN
  UPDATE `agenda_equipe` SET `pendentes` = `pendentes` - (OLD.`status` <> 'espera'),
    `espera` = `espera` - (OLD.`status` = 'espera')
  WHERE OLD.`status` IN ('pendente', 'solicitado', 'espera')
    AND `agenda_id` = OLD.`agenda_id` AND `funcao_id` = OLD.`funcao_id`;
  UPDATE `agenda_equipe` SET `pendentes` = `pendentes` + (NEW.`status` <> 'espera'),
    `espera` = `espera` + (NEW.`status` = 'espera')
  WHERE NEW.`status` IN ('pendente', 'solicitado', 'espera')
    AND `agenda_id` = NEW.`agenda_id` AND `funcao_id` = NEW.`funcao_id`;
END;
