DROP INDEX `precos_regiao_idx`;--> statement-breakpoint
CREATE INDEX `precos_regiao_tipo_idx` ON `precos` (`regiao`,`tipo_evento_id`);