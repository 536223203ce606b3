-- convites.data_evento (0041) copies its event's data_evento, kept by these triggers whatever writes
-- the rows, so that the double-booking rule (services/time-window.ts acceptedOverlap: every path to
-- `aceito`, and each job listing's conflito_horario) reads the professional's accepted invitations of
-- three days from convites_profissional_status_idx instead of all of them. It narrows the range only:
-- the rule still compares the events' own dates and times. Each UPDATE sets only this column, and
-- every other trigger on convites names its columns, so none fires for it. Written by hand
-- (drizzle-kit generate --custom).
UPDATE `convites` SET `data_evento` = coalesce((SELECT a.`data_evento` FROM `agenda` a WHERE a.`id` = `convites`.`agenda_id`), '');
--> statement-breakpoint
CREATE TRIGGER `convites_data_evento_insert` AFTER INSERT ON `convites`
BEGIN
  UPDATE `convites` SET `data_evento` = coalesce((SELECT a.`data_evento` FROM `agenda` a WHERE a.`id` = NEW.`agenda_id`), '')
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `convites_data_evento_rekey` AFTER UPDATE OF `agenda_id` ON `convites`
BEGIN
  UPDATE `convites` SET `data_evento` = coalesce((SELECT a.`data_evento` FROM `agenda` a WHERE a.`id` = NEW.`agenda_id`), '')
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `agenda_convites_data_evento` AFTER UPDATE OF `data_evento` ON `agenda` WHEN OLD.`data_evento` IS NOT NEW.`data_evento`
BEGIN
  UPDATE `convites` SET `data_evento` = NEW.`data_evento` WHERE `agenda_id` = NEW.`id`;
END;
