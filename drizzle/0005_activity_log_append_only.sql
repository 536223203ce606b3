-- The activity log and its seals are append-only (docs/decisions.md#d15): no UPDATE, no DELETE,
-- whatever runs the statement (a route, a script, a console). Written by hand (drizzle-kit generate --custom).
CREATE TRIGGER `logs_atividade_no_update` BEFORE UPDATE ON `logs_atividade`
BEGIN SELECT RAISE(ABORT, 'logs_atividade is append-only: UPDATE refused'); END;
--> statement-breakpoint
CREATE TRIGGER `logs_atividade_no_delete` BEFORE DELETE ON `logs_atividade`
BEGIN SELECT RAISE(ABORT, 'logs_atividade is append-only: DELETE refused'); END;
--> statement-breakpoint
CREATE TRIGGER `logs_atividade_selos_no_update` BEFORE UPDATE ON `logs_atividade_selos`
BEGIN SELECT RAISE(ABORT, 'logs_atividade_selos is append-only: UPDATE refused'); END;
--> statement-breakpoint
CREATE TRIGGER `logs_atividade_selos_no_delete` BEFORE DELETE ON `logs_atividade_selos`
BEGIN SELECT RAISE(ABORT, 'logs_atividade_selos is append-only: DELETE refused'); END;
