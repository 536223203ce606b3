import { createRouter } from '../router';
import * as h from './financeiro.handlers';
import * as r from './financeiro.routes';

/** Finance under /api/financeiro (docs/decisions.md#d18-finance, docs/guide/money.md). */
export const financeiroRoutes = createRouter()
  .openapi(r.listCategorias, h.listCategorias)
  .openapi(r.createCategoria, h.createCategoria)
  .openapi(r.updateCategoria, h.updateCategoria)
  .openapi(r.deleteCategoria, h.deleteCategoria)
  .openapi(r.listLancamentos, h.listLancamentos)
  .openapi(r.createLancamento, h.createLancamento)
  .openapi(r.getLancamento, h.getLancamento)
  .openapi(r.pagarLancamento, h.pagarLancamento)
  .openapi(r.cancelarLancamento, h.cancelarLancamento)
  .openapi(r.estornarLancamento, h.estornarLancamento)
  .openapi(r.createContrato, h.createContrato)
  .openapi(r.listContratos, h.listContratos)
  .openapi(r.getResultado, h.getResultado)
  .openapi(r.putTabela, h.putTabela)
  .openapi(r.listTabelas, h.listTabelas)
  .openapi(r.listRepasses, h.listRepasses)
  .openapi(r.createRepasse, h.createRepasse)
  .openapi(r.getRepasse, h.getRepasse)
  .openapi(r.aprovarRepasse, h.aprovarRepasse)
  .openapi(r.pagarRepasse, h.pagarRepasse)
  .openapi(r.cancelarRepasse, h.cancelarRepasse)
  .openapi(r.pixCsv, h.pixCsv)
  .openapi(r.meusPagamentos, h.meusPagamentos);
