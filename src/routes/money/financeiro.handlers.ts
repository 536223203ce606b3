import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Db } from '../../db/client';
import type { AppEnv } from '../../env';
import { setTotal } from '../../lib/pagination';
import { authorizedWrite } from '../../middleware/folded';
import * as fin from '../../services/money/lancamentos';
import * as repasses from '../../services/money/repasses';
import type { LogCtx } from '../../services/core/activity-log';
import * as tabelas from '../../services/money/tabelas-tributarias';
import { csvAnswer, foldedHandler, handler, logCtx } from '../route';
import * as r from './financeiro.routes';

export const listCategorias = handler(r.listCategorias, async (c) => {
  const { rows, total } = await fin.listCategorias(c.get('db'), c.get('regiao'), c.req.valid('query'));
  setTotal(c, total);
  return c.json(rows, 200);
});

export const createCategoria = handler(r.createCategoria, async (c) =>
  c.json(
    await fin.createCategoria(
      c.get('db'),
      (...args) => authorizedWrite(c, ...args),
      c.get('regiao'),
      c.req.valid('json'),
    ),
    201,
  ),
);

export const updateCategoria = handler(r.updateCategoria, async (c) =>
  c.json(
    await fin.updateCategoria(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('param').id, c.req.valid('json')),
    200,
  ),
);

export const deleteCategoria = handler(r.deleteCategoria, async (c) => {
  await fin.deleteCategoria(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('param').id);
  return c.body(null, 204);
});

export const listLancamentos = handler(r.listLancamentos, async (c) => {
  const { limit, offset, ...filters } = c.req.valid('query');
  const { rows, total } = await fin.listLancamentos(c.get('db'), c.get('regiao'), filters, { limit, offset });
  setTotal(c, total);
  return c.json(rows, 200);
});

export const createLancamento = foldedHandler(r.createLancamento, async (c, { write }) =>
  c.json(await fin.createLancamento(c.get('db'), write, c.get('regiao'), c.req.valid('json')), 201),
);

export const getLancamento = handler(r.getLancamento, async (c) =>
  c.json(await fin.getLancamento(c.get('db'), c.get('regiao'), c.req.valid('param').id), 200),
);

/**
 * POST {id}/<acao> of entries and payout batches: the service's one guarded transition, answered 200
 * with the row; `pago_em` from the optional body of the routes that take one (pagar, estornar).
 */
function transitionHandler<R extends RouteConfig, A extends string>(
  _route: R,
  acao: A,
  run: (db: Db, log: LogCtx, regiao: string, id: string, acao: A, pagoEm?: string) => Promise<object>,
): RouteHandler<R, AppEnv> {
  const fn = async (c: Context<AppEnv, string, { out: { param: { id: string } } }>) => {
    // The validated body of pagar/estornar; none (undefined) on the other transitions.
    const body = c.req.valid('json' as never) as { pago_em?: string } | undefined;
    return c.json(
      await run(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('param').id, acao, body?.pago_em),
      200,
    );
  };
  // Typed against the route by the response schema in tests (every body is checked against the document).
  return fn as unknown as RouteHandler<R, AppEnv>;
}

export const pagarLancamento = transitionHandler(r.pagarLancamento, 'pagar', fin.transition);
export const cancelarLancamento = transitionHandler(r.cancelarLancamento, 'cancelar', fin.transition);
export const estornarLancamento = transitionHandler(r.estornarLancamento, 'estornar', fin.transition);

export const createContrato = handler(r.createContrato, async (c) =>
  c.json(await fin.createContrato(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('json')), 201),
);

export const listContratos = handler(r.listContratos, async (c) => {
  const { fot_id, ...page } = c.req.valid('query');
  const { rows, total } = await fin.listContratos(c.get('db'), c.get('user'), c.get('regiao'), fot_id, page);
  setTotal(c, total);
  return c.json(rows, 200);
});

export const getResultado = foldedHandler(r.getResultado, async (c, { read }) => {
  const q = c.req.valid('query');
  const selects = fin.resultadoSelects(c.get('db'), c.get('regiao'), q);
  const [found, rows] = await read(() => selects);
  return c.json(fin.resultadoAnswer(q, found, rows), 200);
});

export const putTabela = handler(r.putTabela, async (c) =>
  c.json(await tabelas.putTabela(c.get('db'), logCtx(c), c.req.valid('param').vigencia, c.req.valid('json')), 200),
);

export const listTabelas = handler(r.listTabelas, async (c) => {
  const rows = await tabelas.listTabelas(c.get('db'));
  setTotal(c, rows.length);
  return c.json(rows, 200);
});

export const listRepasses = handler(r.listRepasses, async (c) => {
  const { status, ...page } = c.req.valid('query');
  const { rows, total } = await repasses.listRepasses(c.get('db'), c.get('regiao'), status, page);
  setTotal(c, total);
  return c.json(rows, 200);
});

export const createRepasse = handler(r.createRepasse, async (c) =>
  c.json(await repasses.createRepasse(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('json')), 201),
);

export const getRepasse = handler(r.getRepasse, async (c) =>
  c.json(await repasses.getRepasse(c.get('db'), c.get('regiao'), c.req.valid('param').id), 200),
);

export const aprovarRepasse = transitionHandler(r.aprovarRepasse, 'aprovar', repasses.transition);
export const pagarRepasse = transitionHandler(r.pagarRepasse, 'pagar', repasses.transition);
export const cancelarRepasse = transitionHandler(r.cancelarRepasse, 'cancelar', repasses.transition);

export const pixCsv = handler(r.pixCsv, async (c) => {
  const { id } = c.req.valid('param');
  return csvAnswer(c, await repasses.pixCsv(c.get('db'), c.get('regiao'), id), `repasse-${id}-pix.csv`);
});

export const meusPagamentos = handler(r.meusPagamentos, async (c) =>
  c.json(await repasses.meusPagamentos(c.get('db'), c.get('user'), c.req.valid('query')), 200),
);
