CREATE TABLE `pacotes` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`nome` text NOT NULL,
	`descricao` text,
	`preco_centavos` integer NOT NULL,
	`parcelas_max` integer DEFAULT 1 NOT NULL,
	`ativo` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "pacotes_parcelas_max_check" CHECK("pacotes"."parcelas_max" between 1 and 12),
	CONSTRAINT "pacotes_preco_check" CHECK("pacotes"."preco_centavos" > 0)
);
--> statement-breakpoint
CREATE INDEX `pacotes_regiao_nome_idx` ON `pacotes` (`regiao`,`nome`,`id`);--> statement-breakpoint
CREATE TABLE `pagamento_notificacoes` (
	`id` text PRIMARY KEY NOT NULL,
	`provedor` text NOT NULL,
	`pagamento_id` text NOT NULL,
	`chave` text NOT NULL,
	`status` text DEFAULT 'recebida' NOT NULL,
	`pedido_id` text,
	`erro` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pagamento_notificacoes_chave_unique` ON `pagamento_notificacoes` (`chave`);--> statement-breakpoint
CREATE INDEX `pagamento_notificacoes_status_idx` ON `pagamento_notificacoes` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `pedidos` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`fot_id` text NOT NULL,
	`pacote_id` text NOT NULL,
	`pacote_nome` text NOT NULL,
	`comprador_nome` text NOT NULL,
	`comprador_email` text NOT NULL,
	`comprador_cpf` text NOT NULL,
	`valor_centavos` integer NOT NULL,
	`parcelas` integer NOT NULL,
	`status` text DEFAULT 'pendente' NOT NULL,
	`url_pagamento` text,
	`preferencia_id` text,
	`pagamento_id` text,
	`lancamento_id` text,
	`expira_em` text NOT NULL,
	`pago_em` text,
	`estornado_em` text,
	`criado_por` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`request_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`fot_id`) REFERENCES `cadastro_fot`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`pacote_id`) REFERENCES `pacotes`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pedidos_idempotency_idx` ON `pedidos` (`criado_por`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `pedidos_regiao_created_idx` ON `pedidos` (`regiao`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pedidos_regiao_status_created_idx` ON `pedidos` (`regiao`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pedidos_fot_created_idx` ON `pedidos` (`fot_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pedidos_status_expira_idx` ON `pedidos` (`status`,`expira_em`);