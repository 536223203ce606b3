CREATE TABLE `categorias_financeiras` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`nome` text NOT NULL,
	`nome_key` text NOT NULL,
	`tipo` text NOT NULL,
	`sistema` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categorias_financeiras_regiao_key_uq` ON `categorias_financeiras` (`regiao`,`nome_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `categorias_financeiras_regiao_sistema_uq` ON `categorias_financeiras` (`regiao`,`sistema`) WHERE "categorias_financeiras"."sistema" is not null;--> statement-breakpoint
CREATE TABLE `contratos` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`fot_id` text NOT NULL,
	`valor_total_centavos` integer NOT NULL,
	`parcelas` integer NOT NULL,
	`primeiro_vencimento` text NOT NULL,
	`descricao` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`fot_id`) REFERENCES `cadastro_fot`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "contratos_valor_positivo" CHECK("contratos"."valor_total_centavos" > 0)
);
--> statement-breakpoint
CREATE INDEX `contratos_regiao_created_idx` ON `contratos` (`regiao`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `contratos_fot_idx` ON `contratos` (`fot_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `lancamentos` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`tipo` text NOT NULL,
	`categoria_id` text NOT NULL,
	`descricao` text NOT NULL,
	`valor_centavos` integer NOT NULL,
	`vencimento` text NOT NULL,
	`status` text DEFAULT 'previsto' NOT NULL,
	`pago_em` text,
	`fot_id` text,
	`agenda_id` text,
	`profissional_id` text,
	`origem` text DEFAULT 'manual' NOT NULL,
	`estorno_de` text,
	`contrato_id` text,
	`parcela` integer,
	`convite_id` text,
	`chave_externa` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`categoria_id`) REFERENCES `categorias_financeiras`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`fot_id`) REFERENCES `cadastro_fot`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`estorno_de`) REFERENCES `lancamentos`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`contrato_id`) REFERENCES `contratos`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`convite_id`) REFERENCES `convites`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "lancamentos_valor_positivo" CHECK("lancamentos"."valor_centavos" > 0)
);
--> statement-breakpoint
CREATE INDEX `lancamentos_regiao_vencimento_idx` ON `lancamentos` (`regiao`,`vencimento`,`id`);--> statement-breakpoint
CREATE INDEX `lancamentos_regiao_status_vencimento_idx` ON `lancamentos` (`regiao`,`status`,`vencimento`);--> statement-breakpoint
CREATE INDEX `lancamentos_categoria_idx` ON `lancamentos` (`categoria_id`);--> statement-breakpoint
CREATE INDEX `lancamentos_fot_idx` ON `lancamentos` (`fot_id`);--> statement-breakpoint
CREATE INDEX `lancamentos_agenda_idx` ON `lancamentos` (`agenda_id`);--> statement-breakpoint
CREATE INDEX `lancamentos_profissional_idx` ON `lancamentos` (`profissional_id`,`vencimento`);--> statement-breakpoint
CREATE INDEX `lancamentos_contrato_idx` ON `lancamentos` (`contrato_id`,`parcela`);--> statement-breakpoint
CREATE UNIQUE INDEX `lancamentos_estorno_de_uq` ON `lancamentos` (`estorno_de`);--> statement-breakpoint
CREATE UNIQUE INDEX `lancamentos_convite_uq` ON `lancamentos` (`convite_id`) WHERE "lancamentos"."convite_id" is not null and "lancamentos"."status" <> 'cancelado';--> statement-breakpoint
CREATE UNIQUE INDEX `lancamentos_regiao_chave_externa_uq` ON `lancamentos` (`regiao`,`chave_externa`) WHERE "lancamentos"."chave_externa" is not null;