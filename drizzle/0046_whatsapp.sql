CREATE TABLE `whatsapp_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`chave` text NOT NULL,
	`tipo` text NOT NULL,
	`para` text NOT NULL,
	`profissional_id` text,
	`convite_id` text,
	`agenda_id` text,
	`dados` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'pendente' NOT NULL,
	`tentativas` integer DEFAULT 0 NOT NULL,
	`disponivel_em` text NOT NULL,
	`wamid` text,
	`erro` text,
	`enviado_em` text,
	`entregue_em` text,
	`lido_em` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`convite_id`) REFERENCES `convites`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapp_outbox_chave_idx` ON `whatsapp_outbox` (`chave`);--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapp_outbox_wamid_idx` ON `whatsapp_outbox` (`wamid`) WHERE "whatsapp_outbox"."wamid" is not null;--> statement-breakpoint
CREATE INDEX `whatsapp_outbox_status_disponivel_idx` ON `whatsapp_outbox` (`status`,`disponivel_em`);--> statement-breakpoint
CREATE INDEX `whatsapp_outbox_agenda_tipo_idx` ON `whatsapp_outbox` (`agenda_id`,`tipo`);--> statement-breakpoint
CREATE INDEX `whatsapp_outbox_convite_idx` ON `whatsapp_outbox` (`convite_id`);--> statement-breakpoint
CREATE INDEX `whatsapp_outbox_profissional_idx` ON `whatsapp_outbox` (`profissional_id`);--> statement-breakpoint
CREATE TABLE `whatsapp_recebidas` (
	`id` text PRIMARY KEY NOT NULL,
	`de` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `whatsapp_respostas` (
	`convite_id` text PRIMARY KEY NOT NULL,
	`mensagem_id` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`convite_id`) REFERENCES `convites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `profissionais` ADD `whatsapp_desde` text;--> statement-breakpoint
ALTER TABLE `profissionais` ADD `whatsapp_e164` text;