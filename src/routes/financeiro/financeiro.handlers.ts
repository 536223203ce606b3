import { setTotal } from '../../lib/pagination';
import { authorizedWrite } from '../../middleware/folded';
import * as fin from '../../services/lancamentos';
import * as repasses from '../../services/repasses';
import * as tabelas from '../../services/tabelas-tributarias';
import { csvAnswer, foldedHandler, handler, logCtx } from '../route';
import * as r from './financeiro.routes';

export const listCategorias = handler(r.listCategorias, async (c) => {
  const { rows, total } = await fin.listCategorias(c.var.db, c.var.regiao, c.req.valid('query'));
  setTotal(c, total);
  return c.json(rows, 200);
});

export const createCategoria = handler(r.createCategoria, async (c) =>
  c.json(
    await fin.createCategoria(c.var.db, (build) => authorizedWrite(c, build), c.var.regiao, c.req.valid('json')),
    201,
  ),
);

export const updateCategoria = handler(r.updateCategoria, async (c) =>
  c.json(
    await fin.updateCategoria(c.var.db, logCtx(c), c.var.regiao, c.req.valid('param').id, c.req.valid('json')),
    200,
  ),
);

export const deleteCategoria = handler(r.deleteCategoria, async (c) => {
  await fin.deleteCategoria(c.var.db, logCtx(c), c.var.regiao, c.req.valid('param').id);
  return c.body(null, 204);
});

export const listLancamentos = handler(r.listLancamentos, async (c) => {
  const { limit, offset, ...filters } = c.req.valid('query');
  const { rows, total } = await fin.listLancamentos(c.var.db, c.var.regiao, filters, { limit, offset });
  setTotal(c, total);
  return c.json(rows, 200);
});

export const createLancamento = foldedHandler(r.createLancamento, async (c, write) =>
  c.json(await fin.createLancamento(c.var.db, write, c.var.regiao, c.req.valid('json')), 201),
);

export const getLancamento = handler(r.getLancamento, async (c) =>
  c.json(await fin.getLancamento(c.var.db, c.var.regiao, c.req.valid('param').id), 200),
);

/** The optional body of pagar/estornar (absent: undefined). */
const pagoEm = (body: { pago_em?: string } | undefined) => body?.pago_em;

export const pagarLancamento = handler(r.pagarLancamento, async (c) =>
  c.json(
    await fin.transition(
      c.var.db,
      logCtx(c),
      c.var.regiao,
      c.req.valid('param').id,
      'pagar',
      pagoEm(c.req.valid('json')),
    ),
    200,
  ),
);

export const cancelarLancamento = handler(r.cancelarLancamento, async (c) =>
  c.json(await fin.transition(c.var.db, logCtx(c), c.var.regiao, c.req.valid('param').id, 'cancelar'), 200),
);

export const estornarLancamento = handler(r.estornarLancamento, async (c) =>
  c.json(
    await fin.transition(
      c.var.db,
      logCtx(c),
      c.var.regiao,
      c.req.valid('param').id,
      'estornar',
      pagoEm(c.req.valid('json')),
    ),
    200,
  ),
);

export const createContrato = handler(r.createContrato, async (c) =>
  c.json(await fin.createContrato(c.var.db, logCtx(c), c.var.regiao, c.req.valid('json')), 201),
);

export const listContratos = handler(r.listContratos, async (c) => {
  const { fot_id, ...page } = c.req.valid('query');
  const { rows, total } = await fin.listContratos(c.var.db, c.var.user, c.var.regiao, fot_id, page);
  setTotal(c, total);
  return c.json(rows, 200);
});

export const getResultado = handler(r.getResultado, async (c) =>
  c.json(await fin.resultado(c.var.db, c.var.regiao, c.req.valid('query')), 200),
);

export const putTabela = handler(r.putTabela, async (c) =>
  c.json(await tabelas.putTabela(c.var.db, logCtx(c), c.req.valid('param').vigencia, c.req.valid('json')), 200),
);

export const listTabelas = handler(r.listTabelas, async (c) => {
  const rows = await tabelas.listTabelas(c.var.db);
  setTotal(c, rows.length);
  return c.json(rows, 200);
});

export const listRepasses = handler(r.listRepasses, async (c) => {
  const { status, ...page } = c.req.valid('query');
  const { rows, total } = await repasses.listRepasses(c.var.db, c.var.regiao, status, page);
  setTotal(c, total);
  return c.json(rows, 200);
});

export const createRepasse = handler(r.createRepasse, async (c) =>
  c.json(await repasses.createRepasse(c.var.db, logCtx(c), c.var.regiao, c.req.valid('json')), 201),
);

export const getRepasse = handler(r.getRepasse, async (c) =>
  c.json(await repasses.getRepasse(c.var.db, c.var.regiao, c.req.valid('param').id), 200),
);

export const aprovarRepasse = handler(r.aprovarRepasse, async (c) =>
  c.json(await repasses.transition(c.var.db, logCtx(c), c.var.regiao, c.req.valid('param').id, 'aprovar'), 200),
);

export const pagarRepasse = handler(r.pagarRepasse, async (c) =>
  c.json(
    await repasses.transition(
      c.var.db,
      logCtx(c),
      c.var.regiao,
      c.req.valid('param').id,
      'pagar',
      pagoEm(c.req.valid('json')),
    ),
    200,
  ),
);

export const cancelarRepasse = handler(r.cancelarRepasse, async (c) =>
  c.json(await repasses.transition(c.var.db, logCtx(c), c.var.regiao, c.req.valid('param').id, 'cancelar'), 200),
);

export const pixCsv = handler(r.pixCsv, async (c) => {
  const { id } = c.req.valid('param');
  return csvAnswer(c, await repasses.pixCsv(c.var.db, c.var.regiao, id), `repasse-${id}-pix.csv`);
});

export const meusPagamentos = handler(r.meusPagamentos, async (c) =>
  c.json(await repasses.meusPagamentos(c.var.db, c.var.user, c.req.valid('query')), 200),
);
