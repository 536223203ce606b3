CREATE TABLE `importacao_linhas` (
	`importacao_id` text NOT NULL,
	`linha` integer NOT NULL,
	`acao` text NOT NULL,
	`alvo_id` text NOT NULL,
	`dados` text NOT NULL,
	PRIMARY KEY(`importacao_id`, `linha`),
	FOREIGN KEY (`importacao_id`) REFERENCES `importacoes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `importacao_linhas_acao_idx` ON `importacao_linhas` (`importacao_id`,`acao`);--> statement-breakpoint
CREATE TABLE `importacoes` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`tipo` text NOT NULL,
	`status` text NOT NULL,
	`total` integer NOT NULL,
	`criar` integer NOT NULL,
	`atualizar` integer NOT NULL,
	`iguais` integer NOT NULL,
	`erro` integer NOT NULL,
	`erros` text DEFAULT '[]' NOT NULL,
	`criado_por` text,
	`aplicacao_id` text,
	`aplicado_em` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`criado_por`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `importacoes_regiao_created_idx` ON `importacoes` (`regiao`,`created_at`);--> statement-breakpoint
ALTER TABLE `agenda` ADD `chave_externa` text;--> statement-breakpoint
CREATE UNIQUE INDEX `agenda_regiao_chave_externa_uq` ON `agenda` (`regiao`,`chave_externa`);--> statement-breakpoint
CREATE INDEX `profissionais_cpf_cnpj_idx` ON `profissionais` (`cpf_cnpj_titular`);