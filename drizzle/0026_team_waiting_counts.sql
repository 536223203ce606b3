DROP INDEX `convites_agenda_funcao_status_idx`;--> statement-breakpoint
CREATE INDEX `convites_agenda_status_idx` ON `convites` (`agenda_id`,`status`);--> statement-breakpoint
ALTER TABLE `agenda_equipe` ADD `pendentes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `agenda_equipe` ADD `espera` integer DEFAULT 0 NOT NULL;