import { z } from '@hono/zod-openapi';
import { requireAdmin } from '../../middleware/require-role';
import { errors, jsonBody } from '../openapi';
import { authedRoute } from '../route';
import { CapacidadeQuery, CapacidadeSchema, MAX_SIMULADOS, SimulacaoRequest } from './planejamento.schemas';

const tags = ['Planning'];

/** JSON, or the same rows as CSV (`Accept: text/csv`). */
const rows = (description: string) => ({
  description,
  content: {
    'application/json': { schema: CapacidadeSchema },
    'text/csv': {
      schema: z.string().openapi({
        format: 'binary',
        description: 'the rows of `linhas`, one per line, `;`-separated, formula-escaped (eventos space-separated)',
      }),
    },
  },
});

export const capacidade = authedRoute({
  method: 'get',
  path: '/capacidade',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Demand against the pool per day or week, per function and equipment (administrators)',
  description:
    'The season planner (docs/guide/planning.md). One row per (period, function) and per (period, equipment resource), every day of the range whether it has events or not. `Accept: text/csv` answers the same rows as a spreadsheet. A function of another region: 404.',
  request: { query: CapacidadeQuery },
  responses: { 200: rows('The rows, by period, then functions by name, then equipment'), 404: errors[404] },
});

export const simulacao = authedRoute({
  method: 'post',
  path: '/simulacao',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'The planner as if some events existed, writing nothing (administrators)',
  description: `The rows GET /api/planejamento/capacidade would answer (for \`de\`..\`ate\`, \`funcao_id\`, \`agrupar\` of the body; the range defaults to the events' first and last days) once the hypothetical events (at most ${MAX_SIMULADOS}, inside the range) were created with those quotas; they appear in \`eventos\` as \`simulacao-1\`, \`simulacao-2\`, ... in the order sent. Nothing is written. An event type, function or institution of another region: 404; an unknown city, a day outside the range: 400.`,
  request: { body: jsonBody(SimulacaoRequest) },
  responses: { 200: rows('The rows with the hypothetical events counted'), 404: errors[404] },
});
