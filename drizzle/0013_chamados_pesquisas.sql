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
CREATE INDEX `chamados_fot_idx` ON `chamados` (`fot_id`);--> statement-breakpoint
CREATE TABLE `pesquisa_envios` (
	`id` text PRIMARY KEY NOT NULL,
	`pesquisa_id` text NOT NULL,
	`agenda_id` text,
	`usuario_id` text,
	`email` text NOT NULL,
	`nome` text,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`usado_em` text,
	`uso` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`pesquisa_id`) REFERENCES `pesquisas`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`usuario_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pesquisa_envios_token_hash_unique` ON `pesquisa_envios` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `pesquisa_envios_auto_uq` ON `pesquisa_envios` (`pesquisa_id`,`agenda_id`,`usuario_id`);--> statement-breakpoint
CREATE INDEX `pesquisa_envios_agenda_idx` ON `pesquisa_envios` (`agenda_id`);--> statement-breakpoint
CREATE INDEX `pesquisa_envios_usuario_idx` ON `pesquisa_envios` (`usuario_id`);--> statement-breakpoint
CREATE TABLE `pesquisa_perguntas` (
	`id` text PRIMARY KEY NOT NULL,
	`pesquisa_id` text NOT NULL,
	`ordem` integer NOT NULL,
	`texto` text NOT NULL,
	`tipo` text NOT NULL,
	`obrigatoria` integer DEFAULT false NOT NULL,
	`opcoes` text,
	`criterio` text,
	FOREIGN KEY (`pesquisa_id`) REFERENCES `pesquisas`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pesquisa_perguntas_pesquisa_idx` ON `pesquisa_perguntas` (`pesquisa_id`,`ordem`);--> statement-breakpoint
CREATE INDEX `pesquisa_perguntas_criterio_idx` ON `pesquisa_perguntas` (`criterio`);--> statement-breakpoint
CREATE TABLE `pesquisa_resposta_itens` (
	`id` text PRIMARY KEY NOT NULL,
	`resposta_id` text NOT NULL,
	`pergunta_id` text NOT NULL,
	`profissional_id` text,
	`valor_num` real,
	`opcoes` text,
	`texto` text,
	FOREIGN KEY (`resposta_id`) REFERENCES `pesquisa_respostas`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pergunta_id`) REFERENCES `pesquisa_perguntas`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pesquisa_resposta_itens_pergunta_idx` ON `pesquisa_resposta_itens` (`pergunta_id`,`valor_num`);--> statement-breakpoint
CREATE INDEX `pesquisa_resposta_itens_resposta_idx` ON `pesquisa_resposta_itens` (`resposta_id`);--> statement-breakpoint
CREATE INDEX `pesquisa_resposta_itens_profissional_idx` ON `pesquisa_resposta_itens` (`profissional_id`,`pergunta_id`);--> statement-breakpoint
CREATE TABLE `pesquisa_respostas` (
	`id` text PRIMARY KEY NOT NULL,
	`pesquisa_id` text NOT NULL,
	`envio_id` text,
	`agenda_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`pesquisa_id`) REFERENCES `pesquisas`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`envio_id`) REFERENCES `pesquisa_envios`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `pesquisa_respostas_pesquisa_idx` ON `pesquisa_respostas` (`pesquisa_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `pesquisa_respostas_envio_idx` ON `pesquisa_respostas` (`envio_id`);--> statement-breakpoint
CREATE INDEX `pesquisa_respostas_agenda_idx` ON `pesquisa_respostas` (`agenda_id`);--> statement-breakpoint
CREATE TABLE `pesquisas` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`titulo` text NOT NULL,
	`publico` text NOT NULL,
	`anonima` integer DEFAULT false NOT NULL,
	`tipo_evento_id` text,
	`status` text DEFAULT 'rascunho' NOT NULL,
	`criado_por` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`tipo_evento_id`) REFERENCES `tipos_eventos`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`criado_por`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `pesquisas_regiao_created_idx` ON `pesquisas` (`regiao`,"created_at" desc,`id`);--> statement-breakpoint
CREATE INDEX `pesquisas_auto_idx` ON `pesquisas` (`status`,`publico`,`tipo_evento_id`);--> statement-breakpoint
CREATE INDEX `pesquisas_criado_por_idx` ON `pesquisas` (`criado_por`);