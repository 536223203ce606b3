CREATE TABLE `agenda_logistica` (
	`agenda_id` text PRIMARY KEY NOT NULL,
	`horario_chegada` text,
	`ponto_encontro` text,
	`endereco_encontro` text,
	`transporte` text,
	`horario_saida_van` text,
	`estacionamento` text,
	`traje` text,
	`retirada_equipamento` text,
	`devolucao_equipamento` text,
	`contato_nome` text,
	`contato_telefone` text,
	`prazo_credenciamento` text,
	`observacoes` text,
	`versao` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `calendarios` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`geracao` integer DEFAULT 1 NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendarios_user_id_unique` ON `calendarios` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `calendarios_token_hash_unique` ON `calendarios` (`token_hash`);--> statement-breakpoint
CREATE TABLE `lembretes_enviados` (
	`alvo_id` text NOT NULL,
	`tipo` text NOT NULL,
	`agenda_id` text NOT NULL,
	`execucao` text NOT NULL,
	`enviado_em` text NOT NULL,
	PRIMARY KEY(`alvo_id`, `tipo`),
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lembretes_execucao_idx` ON `lembretes_enviados` (`execucao`);--> statement-breakpoint
CREATE INDEX `lembretes_agenda_idx` ON `lembretes_enviados` (`agenda_id`);--> statement-breakpoint
ALTER TABLE `convites` ADD `confirmado_em` text;--> statement-breakpoint
ALTER TABLE `convites` ADD `ciente_versao` integer;--> statement-breakpoint
CREATE INDEX `agenda_data_idx` ON `agenda` (`data_evento`);