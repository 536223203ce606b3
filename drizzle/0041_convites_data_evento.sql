DROP INDEX `convites_profissional_status_idx`;--> statement-breakpoint
ALTER TABLE `convites` ADD `data_evento` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `convites_profissional_status_idx` ON `convites` (`profissional_id`,`status`,`data_evento`,`agenda_id`);