import { allowAgenda, requireAdmin } from '../../middleware/require-role';
import { csvContent, errors, IdParam, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { AvaliacaoSchema } from './regras.schemas';

const tags = ['Rules'];

export const avaliar = authedRoute({
  method: 'get',
  path: '/{id}/regras',
  tags,
  allow: allowAgenda('create'),
  regional: true,
  summary: "What the company's and the institution's rules say for this event (planners)",
  description:
    "The rules in force on the event's date (the company's, then its institution's on top: docs/decisions.md#d25), each figure explained in Portuguese: the suggested quotas (`ceil(57 / 20) = 3 (máximo, UFSC 2011)`), the deadlines counted in business days where the event happens, the fees, the documents of the credential list, and `conflitos`: a team quota or a resource set above a cap (`EXCEEDS_INSTITUTION_LIMIT`). Writes nothing: POST .../regras/aplicar does.",
  request: { params: IdParam },
  responses: { 200: jsonResponse(AvaliacaoSchema, 'The evaluation'), 404: errors[404] },
});

export const credenciamento = authedRoute({
  method: 'get',
  path: '/{id}/credenciamento.csv',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "The event's credential list for the institution (administrators)",
  description:
    "One row per accepted professional, the columns the rules in force name in `documentos` (Nome completo, CPF, RG, Função, Foto; without such a rule: name and function), formula-escaped, `;`-separated. CPF is the payout holder's document when it is a CPF; the profile keeps no RG (empty column).",
  request: { params: IdParam },
  responses: { 200: csvContent('CSV with a header row'), 404: errors[404] },
});
