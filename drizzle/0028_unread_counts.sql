-- notificacoes: a user's unread notifications in contagens (0021; regiao and dia '', dono = user_id),
-- kept by these triggers whatever writes the rows, so that the unread badge every client polls
-- (GET /api/notifications/unread-count) reads one row however many are unread
-- (services/notifications.ts unreadCountSelect; docs/architecture.md, "Kept by triggers"). Upserts
-- on the whole key, as in 0022. Written by hand (drizzle-kit generate --custom).
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'notificacoes', '', `user_id`, '', count(*) FROM `notifications` WHERE `lida` = 0 GROUP BY `user_id`;
--> statement-breakpoint
CREATE TRIGGER `notifications_contagem_insert` AFTER INSERT ON `notifications` WHEN NEW.`lida` = 0
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('notificacoes', '', NEW.`user_id`, '', 1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `notifications_contagem_update` AFTER UPDATE OF `lida`, `user_id` ON `notifications`
WHEN (OLD.`lida` = 0 OR NEW.`lida` = 0) AND (OLD.`lida` <> NEW.`lida` OR OLD.`user_id` <> NEW.`user_id`)
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'notificacoes', '', OLD.`user_id`, '', -1 WHERE OLD.`lida` = 0
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'notificacoes', '', NEW.`user_id`, '', 1 WHERE NEW.`lida` = 0
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- Fires for the cascade too (an account deleted takes its notifications).
CREATE TRIGGER `notifications_contagem_delete` AFTER DELETE ON `notifications` WHEN OLD.`lida` = 0
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('notificacoes', '', OLD.`user_id`, '', -1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
END;
