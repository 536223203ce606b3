/**
 * The typed client: `hc<AppType>` from hono/client knows every route's path, body, query, headers and
 * answers (typechecked by `npm run typecheck`; run by test/routes/app.test.ts against the Worker).
 * In another project, copy this and import AppType from this repository's src/index.ts.
 */
import { hc } from 'hono/client';
import type { AppType } from '../src/index';

export async function firstCalls(baseUrl: string, email: string, senha: string, fetch?: typeof globalThis.fetch) {
  // Log in (no token needed). `res.status` narrows the body: 200 is the session, 401/429 the error shape.
  const login = await hc<AppType>(baseUrl, { fetch }).auth.login.$post({ json: { email, senha } });
  if (login.status !== 200) throw new Error(`login failed: ${(await login.json()).code}`);
  const { access_token, user } = await login.json();

  // One client for the session: the Authorization header goes with every call.
  const api = hc<AppType>(baseUrl, { fetch, headers: { Authorization: `Bearer ${access_token}` } });

  // A regional route without `header` uses the default region (SP) ...
  const cursosSP = await api.api.cursos.$get();
  // ... `header: { 'x-regiao' }` picks one; `limit`/`offset` are numbers (or strings).
  const created = await api.api.cursos.$post({
    json: { nome: `Medicina ${Date.now()}` },
    header: { 'x-regiao': 'MG' },
  });
  if (created.status !== 201) throw new Error(`create failed: ${(await created.json()).code}`);
  const curso = await created.json();
  const page = await api.api.cursos.$get({ query: { limit: 10, offset: 0 }, header: { 'x-regiao': 'MG' } });
  if (page.status !== 200) throw new Error(`list failed: ${(await page.json()).code}`);

  // Path parameters go in `param`.
  const renamed = await api.api.cursos[':id'].$put({
    param: { id: curso.id },
    json: { nome: `${curso.nome} (noturno)` },
    header: { 'x-regiao': 'MG' },
  });

  return {
    role: user.role,
    cursosSP: cursosSP.status,
    curso,
    // List bodies are typed too: each entry has the catalog's fields.
    mgNames: (await page.json()).map((c) => c.nome),
    mgTotal: Number(page.headers.get('X-Total-Count')),
    renamed: renamed.status === 200 ? await renamed.json() : undefined,
  };
}
