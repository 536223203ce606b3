import { requireAdmin, requireRole } from '../../middleware/require-role';
import { RESERVED_KEY_PREFIXES_DOC } from '../../lib/fields';
import { listResponse, PageQuery } from '../../lib/pagination';
import { csvContent, errors, IdParam, jsonBody, jsonResponse } from '../openapi';
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
  MeusPagamentosQuery,
  MeusPagamentosSchema,
  RepasseRequest,
  RepasseSchema,
  RepassesQuery,
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
  fold: true,
  summary: 'Create an entry (previsto, origem manual)',
  description: `${inRegion} categoria_id, fot_id, agenda_id, profissional_id must be of the region (404 otherwise); the category's tipo must match (400); agenda_id must belong to fot_id when both are given (400). A chave_externa already used in the region is 409 CONFLICT, and so is a reference created while the request ran (nothing written: send it again). A chave_externa starting with a prefix the system writes itself (${RESERVED_KEY_PREFIXES_DOC}, any case: an order's revenue entry is \`pedido:<order id>\`) is 400 VALIDATION_FAILED.`,
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

const optionalPagoEm = { required: false, content: { 'application/json': { schema: PagarRequest } } } as const;
/** The request of a transition, and of one that takes the optional body {pago_em}. */
const byId = { params: IdParam };
const byIdPaid = { params: IdParam, body: optionalPagoEm };

/**
 * POST {id}/<acao> of an entry or a payout batch (administrators of the region): one guarded
 * statement, so a retry or a race is 409 INVALID_STATE, never a second change.
 */
function transitionRoute<const P extends string, const Rq extends typeof byId | typeof byIdPaid>(
  path: P,
  answer: { schema: typeof LancamentoSchema | typeof RepasseSchema; description: string },
  { summary, description, request }: { summary: string; description: string; request: Rq },
) {
  return authedRoute({
    method: 'post',
    path,
    tags,
    allow: requireAdmin,
    regional: true,
    summary,
    description: `${inRegion} ${description} One guarded statement: a retry or a race is 409 INVALID_STATE, never a second change.`,
    request,
    responses: { 200: jsonResponse(answer.schema, answer.description), 404: errors[404], 409: errors[409] },
  });
}
const entryAfter = { schema: LancamentoSchema, description: 'The entry after the change' };
const batchAfter = { schema: RepasseSchema, description: 'The batch after the change' };

export const pagarLancamento = transitionRoute('/lancamentos/{id}/pagar', entryAfter, {
  summary: 'Pay an entry (previsto → pago)',
  description:
    'Optional body {pago_em} (default today in São Paulo). A fee in a live payout batch is paid with the batch (409 INVALID_STATE here).',
  request: byIdPaid,
});

export const cancelarLancamento = transitionRoute('/lancamentos/{id}/cancelar', entryAfter, {
  summary: 'Cancel an entry (previsto → cancelado)',
  description: 'A fee in a live payout batch is 409 INVALID_STATE: cancel the batch first.',
  request: byId,
});

export const estornarLancamento = transitionRoute('/lancamentos/{id}/estornar', entryAfter, {
  summary: 'Reverse a paid entry (pago → estornado, plus its mirror entry)',
  description:
    'The mirror has the opposite tipo, the same amount and category, origem estorno, estorno_de = this entry, status pago on pago_em (optional body, default today). Exactly one mirror per entry, also under concurrent calls.',
  request: byIdPaid,
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
  fold: true,
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

// Payout batches (docs/guide/money.md, "Payouts").

export const listRepasses = authedRoute({
  method: 'get',
  path: '/repasses',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Payout batches, newest first, with their items',
  description: `${inRegion} Optional status filter. X-Total-Count is the filtered total.`,
  request: { query: RepassesQuery },
  responses: { 200: listResponse(RepasseSchema, 'Payout batches') },
});

export const createRepasse = authedRoute({
  method: 'post',
  path: '/repasses',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "Gather a period's fees into a payout batch (rascunho)",
  description: `${inRegion} Takes every previsto fee (origem cache) of the region's events dated de..ate (inclusive) that no live batch holds, optionally only of profissional_ids, one item per professional with valor_bruto, inss, irrf, iss, valor_liquido and the PIX key. autonomo_rpa professionals are withheld by the tax table in force on ate (none: 409 INVALID_STATE naming the date); mei and pj are not. No fee to gather: 409 INVALID_STATE. A fee taken by a concurrent batch: 409 CONFLICT and nothing written (each fee is in at most one live batch, by a unique index).`,
  request: { body: jsonBody(RepasseRequest) },
  responses: { 201: jsonResponse(RepasseSchema, 'Created'), 409: errors[409] },
});

export const getRepasse = authedRoute({
  method: 'get',
  path: '/repasses/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'One payout batch with its items',
  description: inRegion,
  request: { params: IdParam },
  responses: { 200: jsonResponse(RepasseSchema, 'The batch'), 404: errors[404] },
});

export const aprovarRepasse = transitionRoute('/repasses/{id}/aprovar', batchAfter, {
  summary: 'Approve a payout batch (rascunho → aprovado)',
  description:
    "The figures stay as gathered; each item takes its professional's current PIX key (conta_pix, tipo_chave_pix). A professional without one: 409 INVALID_STATE naming them.",
  request: byId,
});

export const pagarRepasse = transitionRoute('/repasses/{id}/pagar', batchAfter, {
  summary: 'Mark a payout batch paid (aprovado → pago)',
  description:
    'Every fee of the batch becomes pago on pago_em (optional body, default today in São Paulo), in the same D1 batch, each logged.',
  request: byIdPaid,
});

export const cancelarRepasse = transitionRoute('/repasses/{id}/cancelar', batchAfter, {
  summary: 'Cancel a payout batch (rascunho or aprovado → cancelado)',
  description: 'Its fees are released: they stay previsto and may be gathered again.',
  request: byId,
});

export const pixCsv = authedRoute({
  method: 'get',
  path: '/repasses/{id}/pix.csv',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "The batch's PIX file (aprovado or pago)",
  description: `${inRegion} Columns nome;cpf_cnpj;tipo_chave_pix;chave_pix;valor_liquido (BRL as 1.234,56), UTF-8 with BOM, ';'-separated. A batch in rascunho or cancelado: 409 INVALID_STATE.`,
  request: { params: IdParam },
  responses: { 200: csvContent('CSV with a header row'), 404: errors[404], 409: errors[409] },
});

export const meusPagamentos = authedRoute({
  method: 'get',
  path: '/meus-pagamentos',
  tags,
  allow: requireRole('profissional'),
  summary: "A professional's own fees and payouts",
  description:
    'The fees (origem cache) of the caller’s professional profile with vencimento in de..ate, and its lines of payout batches that are aprovado or pago with ate in de..ate. Default period: the last 12 months to 12 months ahead. Figures as in the batch (bruto, withholding, líquido).',
  request: { query: MeusPagamentosQuery },
  responses: { 200: jsonResponse(MeusPagamentosSchema, 'Fees and payouts') },
});
