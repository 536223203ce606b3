-- agenda_equipe's cidade and uf (0039) copy its event's FOT record's cidade and estado, kept by these
-- triggers whatever writes the rows, so that the job listings filtered by city or state read the
-- matching open places from agenda_equipe_vagas_cidade_idx / _uf_idx instead of testing every open
-- place's event and record (services/vagas.ts; docs/architecture.md, "Kept by triggers"). Each
-- UPDATE sets only these two columns, so no other trigger of agenda_equipe fires for it. Written by
-- hand (drizzle-kit generate --custom).
UPDATE `agenda_equipe` SET
  `cidade` = (SELECT f.`cidade` FROM `agenda` a JOIN `cadastro_fot` f ON f.`id` = a.`fot_id` WHERE a.`id` = `agenda_equipe`.`agenda_id`),
  `uf` = (SELECT f.`estado` FROM `agenda` a JOIN `cadastro_fot` f ON f.`id` = a.`fot_id` WHERE a.`id` = `agenda_equipe`.`agenda_id`);
--> statement-breakpoint
-- A new team row takes its event's record's city and state.
CREATE TRIGGER `agenda_equipe_local_insert` AFTER INSERT ON `agenda_equipe`
BEGIN
  UPDATE `agenda_equipe` SET
    `cidade` = (SELECT f.`cidade` FROM `agenda` a JOIN `cadastro_fot` f ON f.`id` = a.`fot_id` WHERE a.`id` = NEW.`agenda_id`),
    `uf` = (SELECT f.`estado` FROM `agenda` a JOIN `cadastro_fot` f ON f.`id` = a.`fot_id` WHERE a.`id` = NEW.`agenda_id`)
  WHERE `agenda_id` = NEW.`agenda_id` AND `funcao_id` = NEW.`funcao_id`;
END;
--> statement-breakpoint
-- A team row moved to another event (or re-keyed) takes that event's.
CREATE TRIGGER `agenda_equipe_local_rekey` AFTER UPDATE OF `agenda_id`, `funcao_id` ON `agenda_equipe`
BEGIN
  UPDATE `agenda_equipe` SET
    `cidade` = (SELECT f.`cidade` FROM `agenda` a JOIN `cadastro_fot` f ON f.`id` = a.`fot_id` WHERE a.`id` = NEW.`agenda_id`),
    `uf` = (SELECT f.`estado` FROM `agenda` a JOIN `cadastro_fot` f ON f.`id` = a.`fot_id` WHERE a.`id` = NEW.`agenda_id`)
  WHERE `agenda_id` = NEW.`agenda_id` AND `funcao_id` = NEW.`funcao_id`;
END;
--> statement-breakpoint
-- An event moved to another record takes that record's.
CREATE TRIGGER `agenda_local_update` AFTER UPDATE OF `fot_id` ON `agenda` WHEN OLD.`fot_id` IS NOT NEW.`fot_id`
BEGIN
  UPDATE `agenda_equipe` SET
    `cidade` = (SELECT f.`cidade` FROM `cadastro_fot` f WHERE f.`id` = NEW.`fot_id`),
    `uf` = (SELECT f.`estado` FROM `cadastro_fot` f WHERE f.`id` = NEW.`fot_id`)
  WHERE `agenda_id` = NEW.`id`;
END;
--> statement-breakpoint
-- A record's city or state changed: the team rows of its events follow.
CREATE TRIGGER `cadastro_fot_local_update` AFTER UPDATE OF `cidade`, `estado` ON `cadastro_fot`
WHEN OLD.`cidade` IS NOT NEW.`cidade` OR OLD.`estado` IS NOT NEW.`estado`
BEGIN
  UPDATE `agenda_equipe` SET `cidade` = NEW.`cidade`, `uf` = NEW.`estado`
  WHERE `agenda_id` IN (SELECT a.`id` FROM `agenda` a WHERE a.`fot_id` = NEW.`id`);
END;
