DROP INDEX `profissionais_regiao_nome_idx`;--> statement-breakpoint
CREATE INDEX `profissionais_regiao_nome_login_idx` ON `profissionais` (`regiao`,`nome`,`usuario_id`);