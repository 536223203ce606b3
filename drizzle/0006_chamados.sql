CREATE TABLE `chamado_mensagens` (
	`id` text PRIMARY KEY NOT NULL,
	`chamado_id` text NOT NULL,
	`autor_id` text,
	`corpo` text NOT NULL,
	`interna` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`chamado_id`) REFERENCES `chamados`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`autor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `chamado_mensagens_chamado_idx` ON `chamado_mensagens` (`chamado_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `chamado_mensagens_autor_idx` ON `chamado_mensagens` (`autor_id`);--> statement-breakpoint
CREATE TABLE `chamados` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`solicitante_id` text NOT NULL,
	`assunto` text NOT NULL,
	`categoria` text NOT NULL,
	`status` text DEFAULT 'aberto' NOT NULL,
	`prioridade` text DEFAULT 'normal' NOT NULL,
	`responsavel_id` text,
	`agenda_id` text,
	`fot_id` text,
	`resolvido_em` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`solicitante_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`responsavel_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`fot_id`) REFERENCES `cadastro_fot`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `chamados_regiao_updated_idx` ON `chamados` (`regiao`,"updated_at" desc,`id`);--> statement-breakpoint
CREATE INDEX `chamados_regiao_status_idx` ON `chamados` (`regiao`,`status`);--> statement-breakpoint
CREATE INDEX `chamados_solicitante_idx` ON `chamados` (`solicitante_id`,"updated_at" desc);--> statement-breakpoint
CREATE INDEX `chamados_responsavel_idx` ON `chamados` (`responsavel_id`);--> statement-breakpoint
CREATE INDEX `chamados_status_resolvido_idx` ON `chamados` (`status`,`resolvido_em`);--> statement-breakpoint
CREATE INDEX `chamados_agenda_idx` ON `chamados` (`agenda_id`);--> statement-breakpoint
CREATE INDEX `chamados_fot_idx` ON `chamados` (`fot_id`);