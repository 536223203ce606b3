-- users: every account (dono '') and those waiting for approval (dono 'pendentes': ativo = 0) in
-- contagens (0021; regiao and dia ''), so that the administrators' pages of accounts
-- (GET /api/admin/users, /api/admin/users/pending) read their X-Total-Count from one row instead of
-- counting every account (services/admin-users.ts; docs/architecture.md, "Kept by triggers").
-- One upsert per side, n + excluded.n, as in 0032. Written by hand (drizzle-kit generate --custom).
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'users', '', '', '', count(*) FROM `users`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'users', '', 'pendentes', '', count(*) FROM `users` WHERE `ativo` = 0;
--> statement-breakpoint
CREATE TRIGGER `users_contagem_insert` AFTER INSERT ON `users`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'users', '', k.`dono`, '', 1 FROM (SELECT '' AS `dono` UNION ALL SELECT 'pendentes' WHERE NEW.`ativo` = 0) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `users_contagem_update` AFTER UPDATE OF `ativo` ON `users` WHEN OLD.`ativo` IS NOT NEW.`ativo`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'users', '', 'pendentes', '', iif(NEW.`ativo` = 0, 1, 0) - iif(OLD.`ativo` = 0, 1, 0) WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `users_contagem_delete` AFTER DELETE ON `users`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'users', '', k.`dono`, '', -1 FROM (SELECT '' AS `dono` UNION ALL SELECT 'pendentes' WHERE OLD.`ativo` = 0) k WHERE true
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
