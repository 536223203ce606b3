import { avaliarEvento, eventoRegrasSelects } from '../../services/rules/evento';
import { avaliacaoWire } from '../../services/rules/validar';
import { credenciamentoCsv, credenciamentoSelects } from '../../services/rules/credenciamento';
import { csvAnswer, handler } from '../route';
import * as r from './agenda-regras.routes';

export const avaliar = handler(r.avaliar, async (c, ctx) => {
  const rows = await ctx.db.batch(eventoRegrasSelects(ctx, ctx.user, c.req.valid('param').id));
  return c.json(avaliacaoWire(avaliarEvento(rows).avaliacao), 200);
});

export const credenciamento = handler(r.credenciamento, async (c, ctx) => {
  const id = c.req.valid('param').id;
  const [[fatos], team, stored] = await ctx.db.batch(credenciamentoSelects(ctx, ctx.user, id));
  return csvAnswer(c, credenciamentoCsv(fatos, team, stored), `credenciamento-${id}.csv`);
});
