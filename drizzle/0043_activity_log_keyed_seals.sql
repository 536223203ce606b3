CREATE TABLE `logs_atividade_cabecas` (
	`dia` text PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`seq` integer NOT NULL,
	`hash` text NOT NULL,
	`versao` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `logs_atividade_selos` ADD `versao` integer DEFAULT 0 NOT NULL;