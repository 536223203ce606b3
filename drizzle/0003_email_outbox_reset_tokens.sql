CREATE TABLE `email_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`para` text NOT NULL,
	`tipo` text NOT NULL,
	`dados` text DEFAULT '{}' NOT NULL,
	`segredo` text,
	`status` text DEFAULT 'pendente' NOT NULL,
	`tentativas` integer DEFAULT 0 NOT NULL,
	`disponivel_em` text NOT NULL,
	`enviado_em` text,
	`provider_id` text,
	`erro` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `email_outbox_para_tipo_created_idx` ON `email_outbox` (`para`,`tipo`,`created_at`);--> statement-breakpoint
CREATE INDEX `email_outbox_status_disponivel_idx` ON `email_outbox` (`status`,`disponivel_em`);--> statement-breakpoint
CREATE TABLE `password_reset_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tipo` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`revoked_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_reset_tokens_token_hash_unique` ON `password_reset_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_reset_tokens_user_idx` ON `password_reset_tokens` (`user_id`);