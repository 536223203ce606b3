import { capacidade as capacidadeOf } from '../../services/planning/capacidade';
import { capacidadeCsv } from '../../services/planning/capacidade-csv';
import { csvAnswer, handler } from '../route';
import * as r from './planejamento.routes';

/** `Accept: text/csv` asks for the spreadsheet. */
const wantsCsv = (accept: string | undefined) => !!accept && /\btext\/csv\b/i.test(accept);

export const capacidade = handler(r.capacidade, async (c, ctx) => {
  const q = c.req.valid('query');
  const result = await capacidadeOf(ctx, q);
  if (wantsCsv(c.req.header('accept')))
    return csvAnswer(c, capacidadeCsv(result), `capacidade-${ctx.regiao}-${q.de}-${q.ate}.csv`) as never;
  return c.json(result, 200);
});

export const simulacao = handler(r.simulacao, async (c, ctx) => {
  const { eventos, ...range } = c.req.valid('json');
  const days = eventos.map((e) => e.data_evento).sort();
  const q = { ...range, de: range.de ?? days[0]!, ate: range.ate ?? days[days.length - 1]! };
  const result = await capacidadeOf(ctx, q, eventos);
  if (wantsCsv(c.req.header('accept')))
    return csvAnswer(c, capacidadeCsv(result), `simulacao-${ctx.regiao}-${q.de}-${q.ate}.csv`) as never;
  return c.json(result, 200);
});
