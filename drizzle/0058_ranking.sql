CREATE TABLE `pesos_ranking` (
	`regiao` text PRIMARY KEY NOT NULL,
	`distancia` real NOT NULL,
	`avaliacao` real NOT NULL,
	`confiabilidade` real NOT NULL,
	`rodizio` real NOT NULL,
	`funcao` real NOT NULL,
	`preferencia` real NOT NULL,
	`responsividade` real NOT NULL,
	`atualizado_por` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`atualizado_por`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `pesos_ranking_atualizado_por_idx` ON `pesos_ranking` (`atualizado_por`);--> statement-breakpoint
ALTER TABLE `convites` ADD `ranking_snapshot` text;