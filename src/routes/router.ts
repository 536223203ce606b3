import { OpenAPIHono, type Hook } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import type { AppEnv } from '../env';
import { errorBody, type FieldError } from '../lib/errors';

/**
 * Every problem of a failed request part, in Zod's order: `campo` is the field's path with dots
 * (`funcoes_ids.1`, `profissional.uf`), null for the part as a whole.
 */
export function fieldErrors(error: ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    campo: issue.path.length ? issue.path.map(String).join('.') : null,
    erro: issue.message,
  }));
}

/** "senha: deve ter pelo menos 6 caracteres": the first problem, naming its field. */
export function describeZodError(error: ZodError): string {
  const first = fieldErrors(error)[0];
  if (!first) return 'requisição inválida';
  return first.campo ? `${first.campo}: ${first.erro}` : first.erro;
}

const defaultHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) return;
  // Path parameters are only ids: a malformed one is INVALID_ID, never a validation failure.
  const code = result.target === 'param' ? 'INVALID_ID' : 'VALIDATION_FAILED';
  return c.json(errorBody(code, describeZodError(result.error), fieldErrors(result.error)), 400);
};

/** Every route group's router: one validation hook for the whole app. */
export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook });
