import { requireAdmin, requireRole } from '../../middleware/require-role';
import { listResponse, PageQuery } from '../../lib/pagination';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import {
  CategoriaRequest,
  CategoriaSchema,
  ContratoRequest,
  ContratoSchema,
  ContratosQuery,
  LancamentoRequest,
  LancamentoSchema,
  LancamentosQuery,
  PagarRequest,
  ResultadoQuery,
  ResultadoSchema,
  TabelaRequest,
  TabelaSchema,
  VigenciaParam,
} from './financeiro.schemas';

const tags = ['Finance'];
const inRegion = 'Administrators; region from x-regiao (an id of another region is 404).';

export const listCategorias = authedRoute({
  method: 'get',
  path: '/categorias',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Finance categories of the region, by nome (system ones included)',
  description: `${inRegion} The six system categories are always there.`,
  request: { query: PageQuery },
  responses: { 200: listResponse(CategoriaSchema, 'Categories') },
});

export const createCategoria = authedRoute({
  method: 'post',
  path: '/categorias',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Create a finance category',
  description: `${inRegion} nome is unique per region ignoring case: a duplicate is 409 CONFLICT.`,
  request: { body: jsonBody(CategoriaRequest) },
  responses: { 201: jsonResponse(CategoriaSchema, 'Created'), 409: errors[409] },
});

export const updateCategoria = authedRoute({
  method: 'put',
  path: '/categorias/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Rename or retype a finance category',
  description: `${inRegion} A system category is 409 INVALID_STATE; changing the tipo of a category with entries is 409 IN_USE; a duplicate nome 409 CONFLICT.`,
  request: { params: IdParam, body: jsonBody(CategoriaRequest) },
  responses: { 200: jsonResponse(CategoriaSchema, 'Updated'), 404: errors[404], 409: errors[409] },
});

export const deleteCategoria = authedRoute({
  method: 'delete',
  path: '/categorias/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Delete a finance category',
  description: `${inRegion} A system category is 409 INVALID_STATE; one with entries 409 IN_USE.`,
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, 404: errors[404], 409: errors[409] },
});

export const listLancamentos = authedRoute({
  method: 'get',
  path: '/lancamentos',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Entries of the region by vencimento, with filters',
  description: `${inRegion} de/ate filter vencimento (inclusive). X-Total-Count is the filtered total.`,
  request: { query: LancamentosQuery },
  responses: { 200: listResponse(LancamentoSchema, 'Entries') },
});

export const createLancamento = authedRoute({
  method: 'post',
  path: '/lancamentos',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Create an entry (previsto, origem manual)',
  description: `${inRegion} categoria_id, fot_id, agenda_id, profissional_id must be of the region (404 otherwise); the category's tipo must match (400); agenda_id must belong to fot_id when both are given (400). A chave_externa already used in the region is 409 CONFLICT.`,
  request: { body: jsonBody(LancamentoRequest) },
  responses: { 201: jsonResponse(LancamentoSchema, 'Created'), 404: errors[404], 409: errors[409] },
});

export const getLancamento = authedRoute({
  method: 'get',
  path: '/lancamentos/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'One entry',
  description: inRegion,
  request: { params: IdParam },
  responses: { 200: jsonResponse(LancamentoSchema, 'The entry'), 404: errors[404] },
});

const transition = (description: string) =>
  `${inRegion} ${description} One guarded statement: a retry or a race is 409 INVALID_STATE, never a second change.`;
const transitionResponses = {
  200: jsonResponse(LancamentoSchema, 'The entry after the change'),
  404: errors[404],
  409: errors[409],
};
const optionalPagoEm = { required: false, content: { 'application/json': { schema: PagarRequest } } };

export const pagarLancamento = authedRoute({
  method: 'post',
  path: '/lancamentos/{id}/pagar',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Pay an entry (previsto → pago)',
  description: transition('Optional body {pago_em} (default today, UTC).'),
  request: { params: IdParam, body: optionalPagoEm },
  responses: transitionResponses,
});

export const cancelarLancamento = authedRoute({
  method: 'post',
  path: '/lancamentos/{id}/cancelar',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Cancel an entry (previsto → cancelado)',
  description: transition(''),
  request: { params: IdParam },
  responses: transitionResponses,
});

export const estornarLancamento = authedRoute({
  method: 'post',
  path: '/lancamentos/{id}/estornar',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Reverse a paid entry (pago → estornado, plus its mirror entry)',
  description: transition(
    'The mirror has the opposite tipo, the same amount and category, origem estorno, estorno_de = this entry, status pago on pago_em (optional body, default today). Exactly one mirror per entry, also under concurrent calls.',
  ),
  request: { params: IdParam, body: optionalPagoEm },
  responses: transitionResponses,
});

export const createContrato = authedRoute({
  method: 'post',
  path: '/contratos',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "Create a class's contract and its monthly installments",
  description: `${inRegion} The installments are receita entries (category Contrato, origem contrato), split in cents so that the sum is exact (each floor(total/parcelas), the last absorbs the remainder), due monthly from primeiro_vencimento on the same day, or the month's last day when it has none (31 Jan → 28/29 Feb → 31 Mar). One batch.`,
  request: { body: jsonBody(ContratoRequest) },
  responses: { 201: jsonResponse(ContratoSchema, 'Created'), 404: errors[404] },
});

export const listContratos = authedRoute({
  method: 'get',
  path: '/contratos',
  tags,
  allow: requireRole('SUPERADMIN', 'BUSINESS_OWNER', 'EVENT_OWNER'),
  regional: true,
  summary: 'Contracts with their installments, newest first',
  description: 'Administrators: the region; EVENT_OWNER: its own company’s classes only.',
  request: { query: ContratosQuery },
  responses: { 200: listResponse(ContratoSchema, 'Contracts') },
});

export const getResultado = authedRoute({
  method: 'get',
  path: '/resultado',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Result of an event, a class (FOT) or a period',
  description: `${inRegion} Exactly one of fot_id, agenda_id, or de+ate (else 400). Counts previsto and pago entries, never cancelado/estornado nor the mirrors of reversals. A FOT includes its events' entries and its gastos_captacao as category Captação (realizado). One grouped query.`,
  request: { query: ResultadoQuery },
  responses: { 200: jsonResponse(ResultadoSchema, 'The result'), 404: errors[404] },
});

export const putTabela = authedRoute({
  method: 'put',
  path: '/tabelas-tributarias/{vigencia}',
  tags,
  allow: requireRole('SUPERADMIN'),
  summary: 'Create or replace the tax table in force from vigencia (SUPERADMIN)',
  description:
    'Global (not regional). Rates in percent (11 = 11%, up to 4 decimals), amounts in BRL. irrf_faixas ascending by ate (upper bound of the IRRF base), ate null on the last one only.',
  request: { params: VigenciaParam, body: jsonBody(TabelaRequest) },
  responses: { 200: jsonResponse(TabelaSchema, 'The table') },
});

export const listTabelas = authedRoute({
  method: 'get',
  path: '/tabelas-tributarias',
  tags,
  allow: requireAdmin,
  summary: 'Tax tables, newest vigencia first (administrators)',
  responses: { 200: listResponse(TabelaSchema, 'Tax tables') },
});
