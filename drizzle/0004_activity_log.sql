CREATE TABLE `logs_atividade` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`created_at` text NOT NULL,
	`ator_id` text,
	`ator_role` text,
	`acao` text NOT NULL,
	`entidade` text NOT NULL,
	`entidade_id` text,
	`regiao` text,
	`request_id` text,
	`dados` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `logs_atividade_id_unique` ON `logs_atividade` (`id`);--> statement-breakpoint
CREATE INDEX `logs_atividade_entidade_idx` ON `logs_atividade` (`entidade`,`entidade_id`,"seq" desc);--> statement-breakpoint
CREATE INDEX `logs_atividade_ator_idx` ON `logs_atividade` (`ator_id`,"seq" desc);--> statement-breakpoint
CREATE INDEX `logs_atividade_acao_idx` ON `logs_atividade` (`acao`,"seq" desc);--> statement-breakpoint
CREATE INDEX `logs_atividade_regiao_idx` ON `logs_atividade` (`regiao`,"seq" desc);--> statement-breakpoint
CREATE INDEX `logs_atividade_created_idx` ON `logs_atividade` (`created_at`);--> statement-breakpoint
CREATE TABLE `logs_atividade_selos` (
	`seq` integer PRIMARY KEY NOT NULL,
	`hash_anterior` text NOT NULL,
	`hash` text NOT NULL,
	`selado_em` text NOT NULL
);
