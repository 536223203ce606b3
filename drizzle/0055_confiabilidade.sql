CREATE TABLE `agenda_mudancas` (
	`agenda_id` text PRIMARY KEY NOT NULL,
	`mudou_em` text NOT NULL,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `confiabilidade_contestacoes` (
	`id` text PRIMARY KEY NOT NULL,
	`evento_id` text NOT NULL,
	`profissional_id` text NOT NULL,
	`regiao` text NOT NULL,
	`motivo` text NOT NULL,
	`status` text DEFAULT 'aberta' NOT NULL,
	`resposta` text,
	`respondido_por` text,
	`respondido_em` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`evento_id`) REFERENCES `confiabilidade_eventos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`respondido_por`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `confiabilidade_contestacoes_evento_uq` ON `confiabilidade_contestacoes` (`evento_id`);--> statement-breakpoint
CREATE INDEX `confiabilidade_contestacoes_regiao_idx` ON `confiabilidade_contestacoes` (`regiao`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `confiabilidade_contestacoes_profissional_idx` ON `confiabilidade_contestacoes` (`profissional_id`);--> statement-breakpoint
CREATE INDEX `confiabilidade_contestacoes_respondido_por_idx` ON `confiabilidade_contestacoes` (`respondido_por`);--> statement-breakpoint
CREATE TABLE `confiabilidade_eventos` (
	`id` text PRIMARY KEY NOT NULL,
	`profissional_id` text NOT NULL,
	`regiao` text NOT NULL,
	`convite_id` text,
	`agenda_id` text,
	`data_evento` text,
	`tipo` text NOT NULL,
	`minutos` integer,
	`credito` real NOT NULL,
	`peso` real NOT NULL,
	`ocorrido_em` text NOT NULL,
	`abonado` integer DEFAULT false NOT NULL,
	`motivo` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`convite_id`) REFERENCES `convites`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `confiabilidade_eventos_convite_tipo_uq` ON `confiabilidade_eventos` (`convite_id`,`tipo`);--> statement-breakpoint
CREATE INDEX `confiabilidade_eventos_profissional_idx` ON `confiabilidade_eventos` (`profissional_id`,`abonado`,`ocorrido_em`,`peso`,`credito`);--> statement-breakpoint
CREATE INDEX `confiabilidade_eventos_agenda_idx` ON `confiabilidade_eventos` (`agenda_id`);--> statement-breakpoint
CREATE TABLE `confiabilidade_execucoes` (
	`dia` text PRIMARY KEY NOT NULL,
	`execucao` text NOT NULL,
	`em` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `confiabilidade_regioes` (
	`regiao` text NOT NULL,
	`tipo` text NOT NULL,
	`eventos` integer DEFAULT 0 NOT NULL,
	`abonados` integer DEFAULT 0 NOT NULL,
	`soma_credito_cent` integer DEFAULT 0 NOT NULL,
	`soma_peso_cent` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`regiao`, `tipo`)
);
--> statement-breakpoint
ALTER TABLE `profissionais` ADD `confiabilidade` real;--> statement-breakpoint
ALTER TABLE `profissionais` ADD `confiabilidade_peso` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `profissionais` ADD `confiabilidade_creditos` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `profissionais` ADD `confiabilidade_pesos` real DEFAULT 0 NOT NULL;