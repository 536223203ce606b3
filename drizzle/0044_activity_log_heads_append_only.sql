-- The published heads of the activity log's chain are append-only like the log and its seals
-- (docs/decisions.md#d15). Written by hand (drizzle-kit generate --custom).
CREATE TRIGGER `logs_atividade_cabecas_no_update` BEFORE UPDATE ON `logs_atividade_cabecas`
BEGIN SELECT RAISE(ABORT, 'logs_atividade_cabecas is append-only: UPDATE refused'); END;
--> statement-breakpoint
CREATE TRIGGER `logs_atividade_cabecas_no_delete` BEFORE DELETE ON `logs_atividade_cabecas`
BEGIN SELECT RAISE(ABORT, 'logs_atividade_cabecas is append-only: DELETE refused'); END;
