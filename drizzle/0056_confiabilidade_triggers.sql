-- The reliability ledger's kept sums (docs/decisions.md#d28; docs/architecture.md, "Kept by triggers"),
-- never written by the application:
--   * per region and kind (confiabilidade_regioes): the rows, the excused rows, and over the rows that
--     count Σ peso·credito and Σ peso in hundredths (integers: adding and removing never drifts). The
--     region's mean credit, the score's prior, is read from these few rows.
--   * per professional (profissionais.confiabilidade_peso, _creditos, _pesos): over the rows that count,
--     Σ peso and, anchored at 2020-01-01 (julianday 2458849.5), Σ peso·credito·2^(t/180) and
--     Σ peso·2^(t/180), t the row's days since the anchor. Multiplied by 2^(-now/180) they are the
--     decayed sums of the score, which is then computed from the profile's row alone.
-- A row counts unless excused (`abonado`); excusing it (or, never done, un-excusing) moves both.
CREATE TRIGGER `confiabilidade_eventos_insert` AFTER INSERT ON `confiabilidade_eventos`
BEGIN
  INSERT INTO `confiabilidade_regioes` (`regiao`, `tipo`, `eventos`, `abonados`, `soma_credito_cent`, `soma_peso_cent`)
  VALUES (NEW.`regiao`, NEW.`tipo`, 1, NEW.`abonado`,
    CASE WHEN NEW.`abonado` THEN 0 ELSE CAST(round(NEW.`peso` * NEW.`credito` * 100) AS INTEGER) END,
    CASE WHEN NEW.`abonado` THEN 0 ELSE CAST(round(NEW.`peso` * 100) AS INTEGER) END)
  ON CONFLICT (`regiao`, `tipo`) DO UPDATE SET
    `eventos` = `eventos` + 1,
    `abonados` = `abonados` + excluded.`abonados`,
    `soma_credito_cent` = `soma_credito_cent` + excluded.`soma_credito_cent`,
    `soma_peso_cent` = `soma_peso_cent` + excluded.`soma_peso_cent`;
  UPDATE `profissionais` SET
    `confiabilidade_peso` = `confiabilidade_peso` + NEW.`peso`,
    `confiabilidade_creditos` = `confiabilidade_creditos` + NEW.`peso` * NEW.`credito` * pow(2, (julianday(NEW.`ocorrido_em`) - 2458849.5) / 180.0),
    `confiabilidade_pesos` = `confiabilidade_pesos` + NEW.`peso` * pow(2, (julianday(NEW.`ocorrido_em`) - 2458849.5) / 180.0)
  WHERE `id` = NEW.`profissional_id` AND NEW.`abonado` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `confiabilidade_eventos_abonado` AFTER UPDATE OF `abonado` ON `confiabilidade_eventos`
WHEN OLD.`abonado` IS NOT NEW.`abonado`
BEGIN
  UPDATE `confiabilidade_regioes` SET
    `abonados` = `abonados` + (CASE WHEN NEW.`abonado` THEN 1 ELSE -1 END),
    `soma_credito_cent` = `soma_credito_cent` + (CASE WHEN NEW.`abonado` THEN -1 ELSE 1 END) * CAST(round(OLD.`peso` * OLD.`credito` * 100) AS INTEGER),
    `soma_peso_cent` = `soma_peso_cent` + (CASE WHEN NEW.`abonado` THEN -1 ELSE 1 END) * CAST(round(OLD.`peso` * 100) AS INTEGER)
  WHERE `regiao` = OLD.`regiao` AND `tipo` = OLD.`tipo`;
  UPDATE `profissionais` SET
    `confiabilidade_peso` = `confiabilidade_peso` + (CASE WHEN NEW.`abonado` THEN -1 ELSE 1 END) * OLD.`peso`,
    `confiabilidade_creditos` = `confiabilidade_creditos` + (CASE WHEN NEW.`abonado` THEN -1 ELSE 1 END) * OLD.`peso` * OLD.`credito` * pow(2, (julianday(OLD.`ocorrido_em`) - 2458849.5) / 180.0),
    `confiabilidade_pesos` = `confiabilidade_pesos` + (CASE WHEN NEW.`abonado` THEN -1 ELSE 1 END) * OLD.`peso` * pow(2, (julianday(OLD.`ocorrido_em`) - 2458849.5) / 180.0)
  WHERE `id` = OLD.`profissional_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `confiabilidade_eventos_delete` AFTER DELETE ON `confiabilidade_eventos`
BEGIN
  UPDATE `confiabilidade_regioes` SET
    `eventos` = `eventos` - 1,
    `abonados` = `abonados` - OLD.`abonado`,
    `soma_credito_cent` = `soma_credito_cent` - (CASE WHEN OLD.`abonado` THEN 0 ELSE CAST(round(OLD.`peso` * OLD.`credito` * 100) AS INTEGER) END),
    `soma_peso_cent` = `soma_peso_cent` - (CASE WHEN OLD.`abonado` THEN 0 ELSE CAST(round(OLD.`peso` * 100) AS INTEGER) END)
  WHERE `regiao` = OLD.`regiao` AND `tipo` = OLD.`tipo`;
  UPDATE `profissionais` SET
    `confiabilidade_peso` = `confiabilidade_peso` - OLD.`peso`,
    `confiabilidade_creditos` = `confiabilidade_creditos` - OLD.`peso` * OLD.`credito` * pow(2, (julianday(OLD.`ocorrido_em`) - 2458849.5) / 180.0),
    `confiabilidade_pesos` = `confiabilidade_pesos` - OLD.`peso` * pow(2, (julianday(OLD.`ocorrido_em`) - 2458849.5) / 180.0)
  WHERE `id` = OLD.`profissional_id` AND OLD.`abonado` = 0;
END;
--> statement-breakpoint
-- When an event's date, time or place last changed (agenda_mudancas): a professional cancelling after
-- such a change, made since it accepted, is never penalised (docs/decisions.md#d28). Every writer of
-- the agenda (the API, the spreadsheet import) passes here.
CREATE TRIGGER `agenda_mudancas_update` AFTER UPDATE OF `data_evento`, `horario`, `horario_fim`, `local_evento`, `endereco`, `cidade_ibge`, `latitude`, `longitude` ON `agenda`
WHEN OLD.`data_evento` IS NOT NEW.`data_evento` OR OLD.`horario` IS NOT NEW.`horario`
  OR OLD.`horario_fim` IS NOT NEW.`horario_fim` OR OLD.`local_evento` IS NOT NEW.`local_evento`
  OR OLD.`endereco` IS NOT NEW.`endereco` OR OLD.`cidade_ibge` IS NOT NEW.`cidade_ibge`
  OR OLD.`latitude` IS NOT NEW.`latitude` OR OLD.`longitude` IS NOT NEW.`longitude`
BEGIN
  INSERT INTO `agenda_mudancas` (`agenda_id`, `mudou_em`) VALUES (NEW.`id`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  ON CONFLICT (`agenda_id`) DO UPDATE SET `mudou_em` = excluded.`mudou_em`;
END;
