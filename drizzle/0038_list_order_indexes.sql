DROP INDEX `users_ativo_created_idx`;--> statement-breakpoint
CREATE INDEX `users_ativo_created_idx` ON `users` (`ativo`,`created_at`,`id`);--> statement-breakpoint
DROP INDEX `chamados_solicitante_idx`;--> statement-breakpoint
CREATE INDEX `chamados_solicitante_idx` ON `chamados` (`solicitante_id`,`regiao`,"updated_at" desc,`id`);