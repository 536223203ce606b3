-- profissionais.listado (0024) and the professionals per region in contagens (0021), kept by triggers
-- whatever writes the rows, so the professionals' list total of an administrator reads one row
-- (services/profissionais.ts listCount; docs/architecture.md, "Kept by triggers"). Written by hand
-- (drizzle-kit generate --custom).
--
-- listado is listedProfile's rule: no linked account, or an active one. It follows the profile's
-- link (a deleted account's ON DELETE SET NULL included: an unlinked profile is listed, whatever the
-- order of the delete's actions) and the account's `ativo`.
UPDATE `profissionais` SET `listado` = (`usuario_id` IS NULL
  OR EXISTS (SELECT 1 FROM `users` u WHERE u.`id` = `profissionais`.`usuario_id` AND u.`ativo` = 1));
--> statement-breakpoint
CREATE TRIGGER `profissionais_listado_insert` AFTER INSERT ON `profissionais`
BEGIN
  UPDATE `profissionais` SET `listado` = (NEW.`usuario_id` IS NULL
    OR EXISTS (SELECT 1 FROM `users` u WHERE u.`id` = NEW.`usuario_id` AND u.`ativo` = 1))
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `profissionais_listado_link` AFTER UPDATE OF `usuario_id` ON `profissionais`
BEGIN
  UPDATE `profissionais` SET `listado` = (NEW.`usuario_id` IS NULL
    OR EXISTS (SELECT 1 FROM `users` u WHERE u.`id` = NEW.`usuario_id` AND u.`ativo` = 1))
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `users_profissionais_listado` AFTER UPDATE OF `ativo` ON `users`
WHEN OLD.`ativo` IS NOT NEW.`ativo`
BEGIN
  UPDATE `profissionais` SET `listado` = (NEW.`ativo` = 1) WHERE `usuario_id` = NEW.`id`;
END;
--> statement-breakpoint
-- The counts (every +1 and -1 an upsert on the whole key, as 0022's).
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'profissionais', `regiao`, '', '', count(*) FROM `profissionais` WHERE `listado` = 1 GROUP BY `regiao`;
--> statement-breakpoint
CREATE TRIGGER `profissionais_contagem_insert` AFTER INSERT ON `profissionais` WHEN NEW.`listado` = 1
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('profissionais', NEW.`regiao`, '', '', 1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `profissionais_contagem_update` AFTER UPDATE OF `regiao`, `listado` ON `profissionais`
WHEN OLD.`listado` = 1 OR NEW.`listado` = 1
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'profissionais', OLD.`regiao`, '', '', -1 WHERE OLD.`listado` = 1
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'profissionais', NEW.`regiao`, '', '', 1 WHERE NEW.`listado` = 1
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `profissionais_contagem_delete` AFTER DELETE ON `profissionais` WHEN OLD.`listado` = 1
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('profissionais', OLD.`regiao`, '', '', -1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
END;
