import { OpenAPIHono, type Hook } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import type { AppEnv } from '../env';
import { errorBody } from '../lib/errors';

/** "senha: deve ter pelo menos 6 caracteres": the first issue, naming its field. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'requisição inválida';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

const defaultHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) return;
  // Path parameters are only ids: a malformed one is INVALID_ID, never a validation failure.
  if (result.target === 'param') {
    return c.json(errorBody('INVALID_ID', `${describeZodError(result.error)}`), 400);
  }
  return c.json(errorBody('VALIDATION_FAILED', describeZodError(result.error)), 400);
};

/** Every route group's router: one validation hook for the whole app. */
export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook });
