-- cadastro_fot in contagens (0021): the FOT records per region (dono '') and per company (dono =
-- empresa_id), kept like the agenda's (0022: every +1 and -1 an upsert on the whole key), so the FOT
-- list's unfiltered total, an administrator's filtered by company and an EVENT_OWNER's read one row
-- (services/cadastro-fot.ts fotCount; docs/architecture.md, "Kept by triggers"). Written by hand
-- (drizzle-kit generate --custom).
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'cadastro_fot', `regiao`, '', '', count(*) FROM `cadastro_fot` GROUP BY `regiao`;
--> statement-breakpoint
INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
  SELECT 'cadastro_fot', `regiao`, `empresa_id`, '', count(*) FROM `cadastro_fot` GROUP BY `regiao`, `empresa_id`;
--> statement-breakpoint
CREATE TRIGGER `cadastro_fot_contagem_insert` AFTER INSERT ON `cadastro_fot`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    VALUES ('cadastro_fot', NEW.`regiao`, '', '', 1), ('cadastro_fot', NEW.`regiao`, NEW.`empresa_id`, '', 1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cadastro_fot_contagem_update` AFTER UPDATE OF `regiao`, `empresa_id` ON `cadastro_fot`
WHEN OLD.`regiao` <> NEW.`regiao` OR OLD.`empresa_id` <> NEW.`empresa_id`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    VALUES ('cadastro_fot', OLD.`regiao`, '', '', -1), ('cadastro_fot', OLD.`regiao`, OLD.`empresa_id`, '', -1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    VALUES ('cadastro_fot', NEW.`regiao`, '', '', 1), ('cadastro_fot', NEW.`regiao`, NEW.`empresa_id`, '', 1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cadastro_fot_contagem_delete` AFTER DELETE ON `cadastro_fot`
BEGIN
  INSERT INTO `contagens` (`tabela`, `regiao`, `dono`, `dia`, `n`)
    VALUES ('cadastro_fot', OLD.`regiao`, '', '', -1), ('cadastro_fot', OLD.`regiao`, OLD.`empresa_id`, '', -1)
    ON CONFLICT (`tabela`, `regiao`, `dono`, `dia`) DO UPDATE SET `n` = `n` - 1;
END;
