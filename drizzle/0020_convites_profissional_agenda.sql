DROP INDEX `convites_profissional_status_idx`;--> statement-breakpoint
CREATE INDEX `convites_profissional_status_idx` ON `convites` (`profissional_id`,`status`,`agenda_id`);