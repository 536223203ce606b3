import { requireAdmin } from '../../middleware/require-role';
import { allowAgenda } from '../../middleware/require-role';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import {
  CandidatosQuery,
  LoteRequest,
  LoteSchema,
  PesosAnswerSchema,
  PesosRequest,
  RankingSchema,
} from './ranking.schemas';

const tags = ['Ranking'];

export const candidatos = authedRoute({
  method: 'get',
  path: '/{id}/candidatos',
  tags,
  allow: allowAgenda('update'),
  regional: true,
  summary:
    'Who to invite for a function, and why: the explained ranking (administrators; agenda_viewer its own events)',
  description:
    "The region's active holders of the function, best first, each with `score` (0-1) and its seven `componentes` (value, weight, contribution and what it was computed from) and `alertas`. Ties: fewer jobs in the last 30 days, then a stable order seeded by the event. `incluir_excluidos=true` adds who a hard filter leaves out and why (`INATIVO`, `JA_CONVIDADO`, `INDISPONIVEL`, `CONFLITO_HORARIO`, `DESLOCAMENTO`). 400 for a function not of the region. docs/guide/ranking.md explains how to read it.",
  request: { params: IdParam, query: CandidatosQuery },
  responses: { 200: jsonResponse(RankingSchema, 'The ranking'), 404: errors[404] },
});

export const lote = authedRoute({
  method: 'post',
  path: '/{id}/convites/lote',
  tags,
  allow: allowAgenda('update'),
  regional: true,
  summary: "Invite several professionals at once: those named, or the ranking's first N",
  description:
    "Each invitation goes through the single invitation's path (notification, WhatsApp, log entry) and keeps its `ranking_snapshot`. Each item answers its own result: refused with D11's code when a hard filter leaves it out (CONFLICT already invited, PROFESSIONAL_UNAVAILABLE, DOUBLE_BOOKED, TRAVEL_CONFLICT, VALIDATION_FAILED when it does not hold the function, NOT_FOUND) or when the function's quota is filled (QUOTA_FULL); the others are invited. At most 20.",
  request: { params: IdParam, body: jsonBody(LoteRequest) },
  responses: { 200: jsonResponse(LoteSchema, 'Each item with its result'), 404: errors[404] },
});

export const getPesos = authedRoute({
  method: 'get',
  path: '/pesos',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "The region's ranking weights (administrators)",
  request: {},
  responses: { 200: jsonResponse(PesosAnswerSchema, "The weights (D29's defaults while the region has none)") },
});

export const putPesos = authedRoute({
  method: 'put',
  path: '/pesos',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "Set the region's ranking weights (administrators); stored normalised to sum 1",
  request: { body: jsonBody(PesosRequest) },
  responses: { 200: jsonResponse(PesosAnswerSchema, 'The weights as stored') },
});
