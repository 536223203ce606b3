import { z } from '@hono/zod-openapi';
import { requireAdmin, requireRole } from '../../middleware/require-role';
import { listResponse } from '../../lib/pagination';
import { MIN_PROFISSIONAIS_AGREGADO } from '../../services/reliability/formula';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import {
  ConfiabilidadeSchema,
  ContestacaoItemSchema,
  ContestacaoRequest,
  ContestacaoSchema,
  ContestacoesQuery,
  DecisaoRequest,
  ProfIdParam,
  RegiaoAgregadaSchema,
} from './confiabilidade.schemas';

const tags = ['Reliability'];
const professional = requireRole('profissional');

const viewDescription =
  'R = 100 × (3m + Σ w·d·r) / (3 + Σ w·d), d = 2^(-age in days / 180), m the region’s mean credit (0.85 while the region has no rows); `novo` while Σ w < 3. Every ledger row, newest first, with its credit, weight, decay today, the points it moves the score by and a Portuguese sentence saying so; `regras` states the rules. The score only ranks suggestions: it never blocks anything.';

export const mine = authedRoute({
  method: 'get',
  path: '/me/confiabilidade',
  tags,
  allow: professional,
  summary: "The caller's own reliability score and every row behind it (LGPD art. 20)",
  description: viewDescription,
  responses: { 200: jsonResponse(ConfiabilidadeSchema, 'The score, its rules and rows'), 404: errors[404] },
});

export const contest = authedRoute({
  method: 'post',
  path: '/me/confiabilidade/contestacoes',
  tags,
  allow: professional,
  summary: 'Contest one row of the caller’s own ledger; the region’s administrators are notified',
  description:
    'One contest per row: a second is 409 CONFLICT; an excused row is 409 INVALID_STATE; a row that is not the caller’s is 404.',
  request: { body: jsonBody(ContestacaoRequest) },
  responses: { 201: jsonResponse(ContestacaoSchema, 'Contested (aberta)'), 404: errors[404], 409: errors[409] },
});

export const of = authedRoute({
  method: 'get',
  path: '/{id}/confiabilidade',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "A professional's reliability score and ledger (administrators)",
  description: viewDescription,
  request: { params: ProfIdParam },
  responses: { 200: jsonResponse(ConfiabilidadeSchema, 'The score, its rules and rows'), 404: errors[404] },
});

export const listContestacoes = authedRoute({
  method: 'get',
  path: '/contestacoes',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "The region's contests, oldest first (administrators)",
  request: { query: ContestacoesQuery },
  responses: { 200: listResponse(ContestacaoItemSchema, 'Contests') },
});

export const decide = authedRoute({
  method: 'patch',
  path: '/contestacoes/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Answer an open contest: abonar (the row stops counting, the score is recomputed at once) or manter',
  description: 'The professional is notified. Only an `aberta` contest is answered (409 INVALID_STATE otherwise).',
  request: { params: IdParam, body: jsonBody(DecisaoRequest) },
  responses: { 200: jsonResponse(ContestacaoSchema, 'Answered'), 404: errors[404], 409: errors[409] },
});

export const regioes = authedRoute({
  method: 'get',
  path: '/regioes',
  tags,
  allow: requireRole('RESEARCHER', 'SUPERADMIN', 'BUSINESS_OWNER'),
  summary: 'The ledger in aggregate per region (RESEARCHER, administrators): no professional is named',
  description: `A floor against singling anyone out (k-anonymity, k = ${MIN_PROFISSIONAIS_AGREGADO}): a kind with rows of fewer than ${MIN_PROFISSIONAIS_AGREGADO} distinct professionals in a region is suppressed (zeros, null mean, \`suprimido\`), and the region's figures (rows, excused rows, mean credit) sum only the kinds shown; a region with no kind shown reads as one without rows (\`padrao\`, mean 0.85).`,
  responses: { 200: jsonResponse(z.array(RegiaoAgregadaSchema), 'Every configured region') },
});
