DROP INDEX `confiabilidade_eventos_convite_tipo_uq`;--> statement-breakpoint
CREATE INDEX `confiabilidade_eventos_convite_tipo_idx` ON `confiabilidade_eventos` (`convite_id`,`tipo`);--> statement-breakpoint
CREATE UNIQUE INDEX `confiabilidade_eventos_convite_tipo_uq` ON `confiabilidade_eventos` (`convite_id`,`tipo`) WHERE "confiabilidade_eventos"."abonado" = 0;