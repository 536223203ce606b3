CREATE TABLE `agenda_checkin` (
	`agenda_id` text PRIMARY KEY NOT NULL,
	`raio_checkin_m` integer DEFAULT 300 NOT NULL,
	`checkin_abre_min` integer DEFAULT 90 NOT NULL,
	`checkin_fecha_min` integer DEFAULT 60 NOT NULL,
	`exige_localizacao` integer DEFAULT false NOT NULL,
	`chave_versao` integer DEFAULT 1 NOT NULL,
	`coordenador_convite_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`coordenador_convite_id`) REFERENCES `convites`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `agenda_checkin_coordenador_idx` ON `agenda_checkin` (`coordenador_convite_id`);--> statement-breakpoint
CREATE TABLE `faltas` (
	`convite_id` text PRIMARY KEY NOT NULL,
	`agenda_id` text NOT NULL,
	`profissional_id` text NOT NULL,
	`status` text NOT NULL,
	`provavel_em` text,
	`confirmada_em` text,
	`confirmada_por` text,
	`motivo` text,
	`execucao` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`convite_id`) REFERENCES `convites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`confirmada_por`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `faltas_agenda_idx` ON `faltas` (`agenda_id`);--> statement-breakpoint
CREATE INDEX `faltas_profissional_idx` ON `faltas` (`profissional_id`);--> statement-breakpoint
CREATE INDEX `faltas_execucao_idx` ON `faltas` (`execucao`);--> statement-breakpoint
CREATE INDEX `faltas_confirmada_por_idx` ON `faltas` (`confirmada_por`);--> statement-breakpoint
CREATE TABLE `presencas` (
	`id` text PRIMARY KEY NOT NULL,
	`convite_id` text NOT NULL,
	`agenda_id` text NOT NULL,
	`profissional_id` text NOT NULL,
	`tipo` text NOT NULL,
	`momento` text NOT NULL,
	`origem` text NOT NULL,
	`offline` integer DEFAULT false NOT NULL,
	`latitude` real,
	`longitude` real,
	`precisao_m` real,
	`distancia_m` integer,
	`dentro_raio` integer,
	`situacao` text DEFAULT 'ok' NOT NULL,
	`atraso_min` integer,
	`motivo` text,
	`registrado_por` text,
	`revisado_por` text,
	`revisado_em` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`convite_id`) REFERENCES `convites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agenda_id`) REFERENCES `agenda`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profissional_id`) REFERENCES `profissionais`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`registrado_por`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`revisado_por`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `presencas_convite_tipo_uq` ON `presencas` (`convite_id`,`tipo`);--> statement-breakpoint
CREATE INDEX `presencas_agenda_idx` ON `presencas` (`agenda_id`,`tipo`);--> statement-breakpoint
CREATE INDEX `presencas_profissional_idx` ON `presencas` (`profissional_id`);--> statement-breakpoint
CREATE INDEX `presencas_registrado_por_idx` ON `presencas` (`registrado_por`);--> statement-breakpoint
CREATE INDEX `presencas_revisado_por_idx` ON `presencas` (`revisado_por`);