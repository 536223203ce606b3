import { setTotal } from '../../lib/pagination';
import { authorizedWrite } from '../../middleware/folded';
import * as categorias from '../../services/money/categorias';
import * as contratos from '../../services/money/contratos';
import * as lancamentos from '../../services/money/lancamentos';
import * as repasses from '../../services/money/repasses';
import * as resultado from '../../services/money/resultado';
import * as tabelas from '../../services/money/tabelas-tributarias';
import { csvAnswer, foldedHandler, handler } from '../route';
import * as r from './financeiro.routes';

export const listCategorias = handler(r.listCategorias, async (c, ctx) => {
  const { rows, total } = await categorias.listCategorias(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(rows, 200);
});

// Not folded: the region's system categories are ensured before the insert, which a refused author
// must not write either; the caller is known, so the write's author check is the user read already.
export const createCategoria = handler(r.createCategoria, async (c, ctx) =>
  c.json(
    await categorias.createCategoria({ ...ctx, write: (...args) => authorizedWrite(c, ...args) }, c.req.valid('json')),
    201,
  ),
);

export const updateCategoria = handler(r.updateCategoria, async (c, ctx) =>
  c.json(await categorias.updateCategoria(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const deleteCategoria = handler(r.deleteCategoria, async (c, ctx) => {
  await categorias.deleteCategoria(ctx, c.req.valid('param').id);
  return c.body(null, 204);
});

export const listLancamentos = handler(r.listLancamentos, async (c, ctx) => {
  const { rows, total } = await lancamentos.listLancamentos(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(rows, 200);
});

export const createLancamento = foldedHandler(r.createLancamento, async (c, ctx) =>
  c.json(await lancamentos.createLancamento(ctx, c.req.valid('json')), 201),
);

export const getLancamento = handler(r.getLancamento, async (c, ctx) =>
  c.json(await lancamentos.getLancamento(ctx, c.req.valid('param').id), 200),
);

// POST {id}/<acao> of entries and payout batches: the service's one guarded transition, answered 200
// with the row; `pago_em` from the optional body of the routes that take one (pagar, estornar).

export const pagarLancamento = handler(r.pagarLancamento, async (c, ctx) =>
  c.json(
    await lancamentos.transition(ctx, c.req.valid('param').id, { acao: 'pagar', pagoEm: c.req.valid('json')?.pago_em }),
    200,
  ),
);

export const cancelarLancamento = handler(r.cancelarLancamento, async (c, ctx) =>
  c.json(await lancamentos.transition(ctx, c.req.valid('param').id, { acao: 'cancelar' }), 200),
);

export const estornarLancamento = handler(r.estornarLancamento, async (c, ctx) =>
  c.json(
    await lancamentos.transition(ctx, c.req.valid('param').id, {
      acao: 'estornar',
      pagoEm: c.req.valid('json')?.pago_em,
    }),
    200,
  ),
);

export const createContrato = handler(r.createContrato, async (c, ctx) =>
  c.json(await contratos.createContrato(ctx, c.req.valid('json')), 201),
);

export const listContratos = handler(r.listContratos, async (c, ctx) => {
  const { rows, total } = await contratos.listContratos(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(rows, 200);
});

export const getResultado = foldedHandler(r.getResultado, async (c, ctx) => {
  const q = c.req.valid('query');
  const selects = resultado.resultadoSelects(ctx, q);
  const [found, rows] = await ctx.read(() => selects);
  return c.json(resultado.resultadoAnswer(q, found, rows), 200);
});

export const putTabela = handler(r.putTabela, async (c, ctx) =>
  c.json(await tabelas.putTabela(ctx, c.req.valid('param').vigencia, c.req.valid('json')), 200),
);

export const listTabelas = handler(r.listTabelas, async (c, ctx) => {
  const rows = await tabelas.listTabelas(ctx);
  setTotal(c, rows.length);
  return c.json(rows, 200);
});

export const listRepasses = handler(r.listRepasses, async (c, ctx) => {
  const { rows, total } = await repasses.listRepasses(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(rows, 200);
});

export const createRepasse = handler(r.createRepasse, async (c, ctx) =>
  c.json(await repasses.createRepasse(ctx, c.req.valid('json')), 201),
);

export const getRepasse = handler(r.getRepasse, async (c, ctx) =>
  c.json(await repasses.getRepasse(ctx, c.req.valid('param').id), 200),
);

export const aprovarRepasse = handler(r.aprovarRepasse, async (c, ctx) =>
  c.json(await repasses.transition(ctx, c.req.valid('param').id, { acao: 'aprovar' }), 200),
);

export const pagarRepasse = handler(r.pagarRepasse, async (c, ctx) =>
  c.json(
    await repasses.transition(ctx, c.req.valid('param').id, { acao: 'pagar', pagoEm: c.req.valid('json')?.pago_em }),
    200,
  ),
);

export const cancelarRepasse = handler(r.cancelarRepasse, async (c, ctx) =>
  c.json(await repasses.transition(ctx, c.req.valid('param').id, { acao: 'cancelar' }), 200),
);

export const pixCsv = handler(r.pixCsv, async (c, ctx) => {
  const { id } = c.req.valid('param');
  return csvAnswer(c, await repasses.pixCsv(ctx, id), `repasse-${id}-pix.csv`);
});

export const meusPagamentos = handler(r.meusPagamentos, async (c, ctx) =>
  c.json(await repasses.meusPagamentos(ctx, c.req.valid('query')), 200),
);
