ALTER TABLE `agenda` ADD `horario_fim` text;--> statement-breakpoint
ALTER TABLE `agenda_equipe` ADD `publicar` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `agenda_equipe` ADD `requer_aprovacao` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `convites` ADD `origem` text DEFAULT 'convite' NOT NULL;--> statement-breakpoint
ALTER TABLE `convites` ADD `promocao_id` text;--> statement-breakpoint
CREATE INDEX `convites_fila_idx` ON `convites` (`agenda_id`,`funcao_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `convites_promocao_idx` ON `convites` (`promocao_id`);