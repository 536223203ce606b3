CREATE TABLE `somas_lancamentos` (
	`regiao` text NOT NULL,
	`escopo` text NOT NULL,
	`chave` text NOT NULL,
	`categoria_id` text NOT NULL,
	`tipo` text NOT NULL,
	`previsto` integer DEFAULT 0 NOT NULL,
	`realizado` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`regiao`, `escopo`, `chave`, `categoria_id`, `tipo`)
) WITHOUT ROWID;
--> statement-breakpoint
ALTER TABLE `lancamentos` ADD `agenda_fot_id` text;