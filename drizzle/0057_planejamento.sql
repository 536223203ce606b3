CREATE TABLE `capacidade_alertas` (
	`regiao` text NOT NULL,
	`data` text NOT NULL,
	`funcao_id` text NOT NULL,
	`semana` text NOT NULL,
	`deficit` integer NOT NULL,
	`execucao` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`regiao`, `data`, `funcao_id`, `semana`),
	FOREIGN KEY (`funcao_id`) REFERENCES `funcoes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `capacidade_alertas_funcao_idx` ON `capacidade_alertas` (`funcao_id`);--> statement-breakpoint
CREATE INDEX `capacidade_alertas_execucao_idx` ON `capacidade_alertas` (`execucao`);--> statement-breakpoint
CREATE TABLE `capacidade_execucoes` (
	`regiao` text NOT NULL,
	`semana` text NOT NULL,
	`execucao` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`regiao`, `semana`)
);
--> statement-breakpoint
CREATE TABLE `estoque_equipamentos` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`recurso` text NOT NULL,
	`quantidade` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `estoque_equipamentos_regiao_recurso_uq` ON `estoque_equipamentos` (`regiao`,`recurso`);--> statement-breakpoint
CREATE INDEX `profissionais_estudio_idx` ON `profissionais` (`regiao`,`qtd_estudio`) WHERE "profissionais"."tem_estudio" = 1 AND "profissionais"."listado" = 1;--> statement-breakpoint
CREATE INDEX `disponibilidades_data_idx` ON `disponibilidades` (`data_inicio`,`tipo`,`data_fim`,`profissional_id`,`hora_inicio`,`hora_fim`,`dias_semana`);