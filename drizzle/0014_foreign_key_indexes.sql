CREATE INDEX `cadastro_fot_empresa_idx` ON `cadastro_fot` (`empresa_id`);--> statement-breakpoint
CREATE INDEX `convites_convidado_por_idx` ON `convites` (`convidado_por`);--> statement-breakpoint
CREATE INDEX `importacoes_criado_por_idx` ON `importacoes` (`criado_por`);--> statement-breakpoint
CREATE INDEX `lancamentos_convite_idx` ON `lancamentos` (`convite_id`);--> statement-breakpoint
CREATE INDEX `repasse_lancamentos_lancamento_idx` ON `repasse_lancamentos` (`lancamento_id`);--> statement-breakpoint
CREATE INDEX `pedidos_pacote_idx` ON `pedidos` (`pacote_id`);--> statement-breakpoint
CREATE INDEX `pesquisas_tipo_evento_idx` ON `pesquisas` (`tipo_evento_id`);