CREATE TABLE `campanha_funcoes` (
	`campanha_id` text NOT NULL,
	`funcao_id` text NOT NULL,
	PRIMARY KEY(`campanha_id`, `funcao_id`),
	FOREIGN KEY (`campanha_id`) REFERENCES `campanhas_disponibilidade`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`funcao_id`) REFERENCES `funcoes`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `campanha_funcoes_funcao_idx` ON `campanha_funcoes` (`funcao_id`);--> statement-breakpoint
CREATE TABLE `campanha_participacoes` (
	`campanha_id` text NOT NULL,
	`profissional_id` text NOT NULL,
	`respondido_em` text NOT NULL,
	`marca` text NOT NULL,
	PRIMARY KEY(`campanha_id`, `profissional_id`),
	FOREIGN KEY (`campanha_id`) REFERENCES `campanhas_disponibilidade`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `campanha_participacoes_profissional_idx` ON `campanha_participacoes` (`profissional_id`);--> statement-breakpoint
CREATE TABLE `campanha_respostas` (
	`campanha_id` text NOT NULL,
	`profissional_id` text NOT NULL,
	`data` text NOT NULL,
	`resposta` text NOT NULL,
	PRIMARY KEY(`campanha_id`, `profissional_id`, `data`),
	FOREIGN KEY (`campanha_id`) REFERENCES `campanhas_disponibilidade`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `campanha_respostas_data_idx` ON `campanha_respostas` (`campanha_id`,`data`);--> statement-breakpoint
CREATE INDEX `campanha_respostas_profissional_idx` ON `campanha_respostas` (`profissional_id`);--> statement-breakpoint
CREATE TABLE `campanhas_disponibilidade` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`nome` text NOT NULL,
	`de` text NOT NULL,
	`ate` text NOT NULL,
	`prazo` text NOT NULL,
	`encerrada_em` text,
	`lembrete_execucao` text,
	`lembrete_em` text,
	`criado_por` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`criado_por`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `campanhas_disponibilidade_regiao_idx` ON `campanhas_disponibilidade` (`regiao`,`prazo`);--> statement-breakpoint
CREATE INDEX `campanhas_disponibilidade_lembrete_idx` ON `campanhas_disponibilidade` (`lembrete_execucao`,`prazo`);--> statement-breakpoint
CREATE INDEX `campanhas_disponibilidade_criado_por_idx` ON `campanhas_disponibilidade` (`criado_por`);--> statement-breakpoint
CREATE TABLE `disponibilidades` (
	`id` text PRIMARY KEY NOT NULL,
	`profissional_id` text NOT NULL,
	`tipo` text NOT NULL,
	`data_inicio` text NOT NULL,
	`data_fim` text NOT NULL,
	`hora_inicio` text,
	`hora_fim` text,
	`dias_semana` integer,
	`motivo` text,
	`origem` text NOT NULL,
	`campanha_id` text,
	`criado_por` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`campanha_id`) REFERENCES `campanhas_disponibilidade`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`criado_por`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `disponibilidades_profissional_idx` ON `disponibilidades` (`profissional_id`,`data_inicio`,`data_fim`);--> statement-breakpoint
CREATE INDEX `disponibilidades_campanha_idx` ON `disponibilidades` (`campanha_id`,`profissional_id`);--> statement-breakpoint
CREATE INDEX `disponibilidades_criado_por_idx` ON `disponibilidades` (`criado_por`);