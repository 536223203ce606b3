CREATE TABLE `anos_formaturas` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`ano_semestre` text NOT NULL,
	`ano_semestre_key` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `anos_formaturas_regiao_key_uq` ON `anos_formaturas` (`regiao`,`ano_semestre_key`);--> statement-breakpoint
CREATE TABLE `cursos` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`nome` text NOT NULL,
	`nome_key` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cursos_regiao_key_uq` ON `cursos` (`regiao`,`nome_key`);--> statement-breakpoint
CREATE TABLE `empresas` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`nome` text NOT NULL,
	`nome_key` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `empresas_regiao_key_uq` ON `empresas` (`regiao`,`nome_key`);--> statement-breakpoint
CREATE TABLE `funcoes` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`nome` text NOT NULL,
	`nome_key` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `funcoes_regiao_key_uq` ON `funcoes` (`regiao`,`nome_key`);--> statement-breakpoint
CREATE TABLE `precos` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`tipo_evento_id` text NOT NULL,
	`funcao_profissional_id` text NOT NULL,
	`valor_centavos` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`tipo_evento_id`) REFERENCES `tipos_eventos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`funcao_profissional_id`) REFERENCES `funcoes`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `precos_tipo_funcao_regiao_uq` ON `precos` (`tipo_evento_id`,`funcao_profissional_id`,`regiao`);--> statement-breakpoint
CREATE INDEX `precos_regiao_idx` ON `precos` (`regiao`);--> statement-breakpoint
CREATE INDEX `precos_funcao_idx` ON `precos` (`funcao_profissional_id`);--> statement-breakpoint
CREATE TABLE `tipos_eventos` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`nome` text NOT NULL,
	`nome_key` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tipos_eventos_regiao_key_uq` ON `tipos_eventos` (`regiao`,`nome_key`);--> statement-breakpoint
CREATE TABLE `tipos_servicos` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`nome` text NOT NULL,
	`nome_key` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tipos_servicos_regiao_key_uq` ON `tipos_servicos` (`regiao`,`nome_key`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`nome` text NOT NULL,
	`email` text NOT NULL,
	`senha_hash` text NOT NULL,
	`telefone` text,
	`role` text NOT NULL,
	`ativo` integer DEFAULT false NOT NULL,
	`empresa_id` text,
	`cpf_cnpj` text,
	`professional_type` text,
	`endereco` text,
	`cidade` text,
	`uf` text,
	`cep` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`empresa_id`) REFERENCES `empresas`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_ativo_created_idx` ON `users` (`ativo`,`created_at`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`);--> statement-breakpoint
CREATE INDEX `users_empresa_idx` ON `users` (`empresa_id`);--> statement-breakpoint
CREATE TABLE `login_failures` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_failures_key_created_idx` ON `login_failures` (`key`,`created_at`);--> statement-breakpoint
CREATE INDEX `login_failures_created_idx` ON `login_failures` (`created_at`);--> statement-breakpoint
CREATE TABLE `refresh_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`family_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`replaced_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refresh_tokens_token_hash_unique` ON `refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_user_idx` ON `refresh_tokens` (`user_id`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_family_idx` ON `refresh_tokens` (`family_id`);--> statement-breakpoint
CREATE TABLE `profissionais` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`usuario_id` text,
	`email` text,
	`nome` text NOT NULL,
	`funcao_profissional_id` text,
	`whatsapp` text,
	`endereco` text,
	`cidade` text,
	`uf` text,
	`banco` text,
	`agencia` text,
	`conta_pix` text,
	`cpf_cnpj_titular` text,
	`tipo_cartao` text,
	`tabela_free` text,
	`equipamentos` text,
	`observacao` text,
	`carro_disponivel` integer,
	`tem_estudio` integer,
	`qtd_estudio` integer,
	`extra_por_equipamento` integer,
	`qual_tec` integer,
	`educacao_simpatia` integer,
	`desempenho_evento` integer,
	`disp_horario` integer,
	`avatar_url` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`usuario_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`funcao_profissional_id`) REFERENCES `funcoes`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `profissionais_usuario_id_unique` ON `profissionais` (`usuario_id`);--> statement-breakpoint
CREATE INDEX `profissionais_regiao_nome_idx` ON `profissionais` (`regiao`,`nome`);--> statement-breakpoint
CREATE INDEX `profissionais_email_idx` ON `profissionais` (`email`);--> statement-breakpoint
CREATE INDEX `profissionais_funcao_idx` ON `profissionais` (`funcao_profissional_id`);--> statement-breakpoint
CREATE TABLE `profissional_funcoes` (
	`profissional_id` text NOT NULL,
	`funcao_id` text NOT NULL,
	PRIMARY KEY(`profissional_id`, `funcao_id`),
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`funcao_id`) REFERENCES `funcoes`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `profissional_funcoes_funcao_idx` ON `profissional_funcoes` (`funcao_id`);--> statement-breakpoint
CREATE TABLE `cadastro_fot` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`fot` integer NOT NULL,
	`empresa_id` text NOT NULL,
	`curso_id` text NOT NULL,
	`ano_formatura_id` text NOT NULL,
	`instituicao` text,
	`cidade` text,
	`estado` text,
	`observacoes` text,
	`gastos_captacao_centavos` integer,
	`pre_venda` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`empresa_id`) REFERENCES `empresas`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`curso_id`) REFERENCES `cursos`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`ano_formatura_id`) REFERENCES `anos_formaturas`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cadastro_fot_fot_unique` ON `cadastro_fot` (`fot`);--> statement-breakpoint
CREATE INDEX `cadastro_fot_regiao_updated_idx` ON `cadastro_fot` (`regiao`,"updated_at" desc,`id`);--> statement-breakpoint
CREATE INDEX `cadastro_fot_regiao_empresa_updated_idx` ON `cadastro_fot` (`regiao`,`empresa_id`,"updated_at" desc,`id`);--> statement-breakpoint
CREATE INDEX `cadastro_fot_curso_idx` ON `cadastro_fot` (`curso_id`);--> statement-breakpoint
CREATE INDEX `cadastro_fot_ano_idx` ON `cadastro_fot` (`ano_formatura_id`);--> statement-breakpoint
CREATE TABLE `agenda` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`user_id` text,
	`fot_id` text NOT NULL,
	`tipo_evento_id` text NOT NULL,
	`data_evento` text NOT NULL,
	`horario` text,
	`local_evento` text,
	`endereco` text,
	`observacoes_evento` text,
	`logistica_observacoes` text,
	`status_profissionais` text,
	`pre_venda` integer,
	`qtd_formandos` integer,
	`qtd_fotografos` integer,
	`qtd_cinegrafistas` integer,
	`qtd_recepcionistas` integer,
	`qtd_estudios` integer,
	`qtd_ponto_foto` integer,
	`qtd_ponto_id` integer,
	`qtd_ponto_decorado` integer,
	`qtd_pontos_led` integer,
	`qtd_plataforma_360` integer,
	`foto_faltante` integer,
	`cine_faltante` integer,
	`recep_faltante` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`fot_id`) REFERENCES `cadastro_fot`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`tipo_evento_id`) REFERENCES `tipos_eventos`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `agenda_regiao_data_idx` ON `agenda` (`regiao`,`data_evento`,`horario`,`id`);--> statement-breakpoint
CREATE INDEX `agenda_user_data_idx` ON `agenda` (`user_id`,`data_evento`);--> statement-breakpoint
CREATE INDEX `agenda_fot_idx` ON `agenda` (`fot_id`);--> statement-breakpoint
CREATE INDEX `agenda_tipo_evento_idx` ON `agenda` (`tipo_evento_id`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tipo` text NOT NULL,
	`titulo` text NOT NULL,
	`mensagem` text NOT NULL,
	`dados` text DEFAULT '{}' NOT NULL,
	`lida` integer DEFAULT false NOT NULL,
	`read_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_created_idx` ON `notifications` (`user_id`,"created_at" desc,"id" desc);--> statement-breakpoint
CREATE INDEX `notifications_user_lida_idx` ON `notifications` (`user_id`,`lida`);--> statement-breakpoint
CREATE TABLE `push_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token` text NOT NULL,
	`plataforma` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_tokens_token_unique` ON `push_tokens` (`token`);--> statement-breakpoint
CREATE INDEX `push_tokens_user_idx` ON `push_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `agenda_equipe` (
	`agenda_id` text NOT NULL,
	`funcao_id` text NOT NULL,
	`quantidade` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`agenda_id`, `funcao_id`),
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`funcao_id`) REFERENCES `funcoes`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `agenda_equipe_funcao_idx` ON `agenda_equipe` (`funcao_id`);--> statement-breakpoint
CREATE TABLE `convites` (
	`id` text PRIMARY KEY NOT NULL,
	`agenda_id` text NOT NULL,
	`profissional_id` text NOT NULL,
	`funcao_id` text NOT NULL,
	`status` text DEFAULT 'pendente' NOT NULL,
	`convidado_por` text,
	`respondido_em` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`funcao_id`) REFERENCES `funcoes`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`convidado_por`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `convites_agenda_profissional_uq` ON `convites` (`agenda_id`,`profissional_id`);--> statement-breakpoint
CREATE INDEX `convites_agenda_funcao_status_idx` ON `convites` (`agenda_id`,`funcao_id`,`status`);--> statement-breakpoint
CREATE INDEX `convites_profissional_status_idx` ON `convites` (`profissional_id`,`status`);--> statement-breakpoint
CREATE INDEX `convites_funcao_idx` ON `convites` (`funcao_id`);