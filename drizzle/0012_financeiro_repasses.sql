CREATE TABLE `repasse_itens` (
	`id` text PRIMARY KEY NOT NULL,
	`repasse_id` text NOT NULL,
	`profissional_id` text NOT NULL,
	`nome` text NOT NULL,
	`cpf_cnpj` text,
	`regime_fiscal` text NOT NULL,
	`valor_bruto_centavos` integer NOT NULL,
	`inss_centavos` integer NOT NULL,
	`irrf_centavos` integer NOT NULL,
	`iss_centavos` integer NOT NULL,
	`valor_liquido_centavos` integer NOT NULL,
	`chave_pix` text,
	`tipo_chave_pix` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`repasse_id`) REFERENCES `repasses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `repasse_itens_repasse_profissional_uq` ON `repasse_itens` (`repasse_id`,`profissional_id`);--> statement-breakpoint
CREATE INDEX `repasse_itens_profissional_idx` ON `repasse_itens` (`profissional_id`);--> statement-breakpoint
CREATE TABLE `repasse_lancamentos` (
	`repasse_id` text NOT NULL,
	`lancamento_id` text NOT NULL,
	`profissional_id` text NOT NULL,
	`ativo` integer,
	PRIMARY KEY(`repasse_id`, `lancamento_id`),
	FOREIGN KEY (`repasse_id`) REFERENCES `repasses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lancamento_id`) REFERENCES `lancamentos`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `repasse_lancamentos_ativo_uq` ON `repasse_lancamentos` (`lancamento_id`) WHERE "repasse_lancamentos"."ativo" = 1;--> statement-breakpoint
CREATE TABLE `repasses` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`de` text NOT NULL,
	`ate` text NOT NULL,
	`status` text DEFAULT 'rascunho' NOT NULL,
	`tabela_vigencia` text,
	`total_bruto_centavos` integer NOT NULL,
	`total_inss_centavos` integer NOT NULL,
	`total_irrf_centavos` integer NOT NULL,
	`total_iss_centavos` integer NOT NULL,
	`total_liquido_centavos` integer NOT NULL,
	`qtd_lancamentos` integer NOT NULL,
	`lancamentos_vinculados` integer,
	`aprovado_em` text,
	`pago_em` text,
	`cancelado_em` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "repasses_vinculos" CHECK("repasses"."lancamentos_vinculados" is null or "repasses"."lancamentos_vinculados" = "repasses"."qtd_lancamentos")
);
--> statement-breakpoint
CREATE INDEX `repasses_regiao_created_idx` ON `repasses` (`regiao`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `tabelas_tributarias` (
	`vigencia` text PRIMARY KEY NOT NULL,
	`inss_aliquota` real NOT NULL,
	`inss_teto_centavos` integer NOT NULL,
	`irrf_faixas` text NOT NULL,
	`iss_aliquota` real NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `profissionais` ADD `regime_fiscal` text DEFAULT 'mei' NOT NULL;--> statement-breakpoint
ALTER TABLE `profissionais` ADD `tipo_chave_pix` text;