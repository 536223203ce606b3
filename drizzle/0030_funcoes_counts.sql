-- funcoes: the listed holders of each function in contagens (0021; regiao and dia '', dono =
-- funcao_id), so that the head count per function (GET /api/profissionais/contagem) reads one row
-- per function instead of every holder (services/profissionais.ts contagemSelect;
-- docs/architecture.md, "Kept by triggers"). profissional_funcoes.listado (0029) copies its
-- profile's listado (0025), and the count moves only with the row's own values: a profile's
-- cascade delete decrements whatever the order of its actions. Upserts on the whole key, as in
-- 0022. Written by hand (drizzle-kit generate --custom).
UPDATE `profissional_funcoes` SET `listado` = coalesce((SELECT p.`listado` FROM `profissionais` p
  WHERE p.`id` = `profissional_funcoes`.`profissional_id`), 0);
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'funcoes', '', `funcao_id`, '', count(*) FROM `profissional_funcoes` WHERE `listado` = 1 GROUP BY `funcao_id`;
--> statement-breakpoint
-- A new row counts as inserted, then takes its profile's listado (the update trigger moves the count).
CREATE TRIGGER `profissional_funcoes_contagem_insert` AFTER INSERT ON `profissional_funcoes`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'funcoes', '', NEW.`funcao_id`, '', 1 WHERE NEW.`listado` = 1
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
  UPDATE `profissional_funcoes` SET `listado` = coalesce((SELECT p.`listado` FROM `profissionais` p
    WHERE p.`id` = NEW.`profissional_id`), 0)
  WHERE `profissional_id` = NEW.`profissional_id` AND `funcao_id` = NEW.`funcao_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `profissional_funcoes_rekey` AFTER UPDATE OF `profissional_id` ON `profissional_funcoes`
BEGIN
  UPDATE `profissional_funcoes` SET `listado` = coalesce((SELECT p.`listado` FROM `profissionais` p
    WHERE p.`id` = NEW.`profissional_id`), 0)
  WHERE `profissional_id` = NEW.`profissional_id` AND `funcao_id` = NEW.`funcao_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `profissional_funcoes_contagem_update` AFTER UPDATE OF `listado`, `funcao_id` ON `profissional_funcoes`
WHEN OLD.`listado` = 1 OR NEW.`listado` = 1
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'funcoes', '', OLD.`funcao_id`, '', -1 WHERE OLD.`listado` = 1
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    SELECT 'funcoes', '', NEW.`funcao_id`, '', 1 WHERE NEW.`listado` = 1
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- Fires for the cascade too (a profile deleted takes its functions): the row's own listado decides.
CREATE TRIGGER `profissional_funcoes_contagem_delete` AFTER DELETE ON `profissional_funcoes` WHEN OLD.`listado` = 1
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`) VALUES ('funcoes', '', OLD.`funcao_id`, '', -1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
END;
--> statement-breakpoint
-- The profile listed or not (0025 keeps profissionais.listado): its functions' rows follow.
CREATE TRIGGER `profissionais_funcoes_listado` AFTER UPDATE OF `listado` ON `profissionais`
WHEN OLD.`listado` IS NOT NEW.`listado`
BEGIN
  UPDATE `profissional_funcoes` SET `listado` = NEW.`listado` WHERE `profissional_id` = NEW.`id`;
END;
