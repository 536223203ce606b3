-- Places (docs/decisions.md#d23): cities and their search words, institutions, the travel matrix, the
-- event's city and venue. drizzle-kit wrote the ADD COLUMN of cadastro_fot.instituicao_id without its ON DELETE
-- RESTRICT (the schema has it): added here, so deleting an institution a FOT record uses is 409 IN_USE at once.
CREATE TABLE `cidades` (
	`codigo_ibge` integer PRIMARY KEY NOT NULL,
	`nome` text NOT NULL,
	`nome_key` text NOT NULL,
	`uf` text NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cidades_nome_key_idx` ON `cidades` (`nome_key`);--> statement-breakpoint
CREATE INDEX `cidades_uf_nome_key_idx` ON `cidades` (`uf`,`nome_key`);--> statement-breakpoint
CREATE TABLE `cidades_busca` (
	`chave` text NOT NULL,
	`codigo_ibge` integer NOT NULL,
	`posicao` integer NOT NULL,
	PRIMARY KEY(`chave`, `codigo_ibge`, `posicao`),
	FOREIGN KEY (`codigo_ibge`) REFERENCES `cidades`(`codigo_ibge`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `cidades_busca_codigo_idx` ON `cidades_busca` (`codigo_ibge`);--> statement-breakpoint
CREATE TABLE `deslocamentos` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`origem_ibge` integer NOT NULL,
	`destino_ibge` integer NOT NULL,
	`minutos` integer NOT NULL,
	`fonte` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`origem_ibge`) REFERENCES `cidades`(`codigo_ibge`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`destino_ibge`) REFERENCES `cidades`(`codigo_ibge`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deslocamentos_regiao_origem_destino_uq` ON `deslocamentos` (`regiao`,`origem_ibge`,`destino_ibge`);--> statement-breakpoint
CREATE INDEX `deslocamentos_origem_idx` ON `deslocamentos` (`origem_ibge`);--> statement-breakpoint
CREATE INDEX `deslocamentos_destino_idx` ON `deslocamentos` (`destino_ibge`);--> statement-breakpoint
CREATE TABLE `instituicoes` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`nome` text NOT NULL,
	`nome_key` text NOT NULL,
	`sigla` text,
	`cidade_ibge` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`cidade_ibge`) REFERENCES `cidades`(`codigo_ibge`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `instituicoes_regiao_key_uq` ON `instituicoes` (`regiao`,`nome_key`);--> statement-breakpoint
CREATE INDEX `instituicoes_cidade_idx` ON `instituicoes` (`cidade_ibge`);--> statement-breakpoint
ALTER TABLE `cadastro_fot` ADD `instituicao_id` text REFERENCES instituicoes(id) ON DELETE RESTRICT;--> statement-breakpoint
CREATE INDEX `cadastro_fot_instituicao_idx` ON `cadastro_fot` (`instituicao_id`);--> statement-breakpoint
ALTER TABLE `agenda` ADD `cidade_ibge` integer REFERENCES cidades(codigo_ibge);--> statement-breakpoint
ALTER TABLE `agenda` ADD `latitude` real;--> statement-breakpoint
ALTER TABLE `agenda` ADD `longitude` real;--> statement-breakpoint
CREATE INDEX `agenda_cidade_idx` ON `agenda` (`cidade_ibge`);