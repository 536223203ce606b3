DROP INDEX `lancamentos_fot_idx`;--> statement-breakpoint
DROP INDEX `lancamentos_agenda_idx`;--> statement-breakpoint
CREATE INDEX `lancamentos_fot_vencimento_idx` ON `lancamentos` (`fot_id`,`vencimento`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `lancamentos_agenda_vencimento_idx` ON `lancamentos` (`agenda_id`,`vencimento`,`created_at`,`id`);