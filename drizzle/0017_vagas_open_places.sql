DROP INDEX `agenda_equipe_publicadas_idx`;--> statement-breakpoint
ALTER TABLE `agenda_equipe` ADD `regiao` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `agenda_equipe` ADD `data_evento` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `agenda_equipe` ADD `aceitos` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `agenda_equipe_vagas_idx` ON `agenda_equipe` (`regiao`,`funcao_id`,`data_evento`,`publicar`,`quantidade`,`aceitos`) WHERE "agenda_equipe"."publicar" = 1 AND "agenda_equipe"."quantidade" > "agenda_equipe"."aceitos";