import { listResponse } from '../../lib/pagination';
import { requireRole } from '../../middleware/require-role';
import { MIN_ANONIMO } from '../../services/surveys/resultados';
import { csvContent, errors, IdParam, jsonBody, jsonResponse, MessageSchema } from '../openapi';
import { authedRoute, publicRoute } from '../route';
import {
  EnvioRequest,
  EnvioResponse,
  PesquisaCreate,
  PesquisaSchema,
  PesquisasQuery,
  PesquisaUpdate,
  PublicPesquisaSchema,
  RespostasRequest,
  ResultadosSchema,
  TokenParam,
} from './pesquisas.schemas';

const tags = ['Surveys'];
const allow = requireRole('RESEARCHER', 'SUPERADMIN', 'BUSINESS_OWNER');
const base = { tags, allow, regional: true } as const;

export const list = authedRoute({
  ...base,
  method: 'get',
  path: '/',
  summary: "The region's surveys with their questions, newest first",
  request: { query: PesquisasQuery },
  responses: { 200: listResponse(PesquisaSchema, 'Surveys') },
});

export const create = authedRoute({
  ...base,
  method: 'post',
  path: '/',
  summary: 'Create a survey with its questions (RESEARCHER, administrators)',
  request: { body: jsonBody(PesquisaCreate) },
  responses: { 201: jsonResponse(PesquisaSchema, 'Created'), 404: errors[404] },
});

export const get = authedRoute({
  ...base,
  method: 'get',
  path: '/{id}',
  summary: 'A survey with its questions',
  request: { params: IdParam },
  responses: { 200: jsonResponse(PesquisaSchema, 'The survey'), 404: errors[404] },
});

export const update = authedRoute({
  ...base,
  method: 'put',
  path: '/{id}',
  summary: 'Change a survey; questions, publico and anonima are frozen once a response exists',
  description:
    'Changing `perguntas`, `publico` or `anonima` of a survey with responses: 409 INVALID_STATE. `anonima` is locked earlier, once any link was sent (by hand or by the scheduled job): changing it is 409 INVALID_STATE and nothing of the request is written; sending the value it already has is accepted.',
  request: { params: IdParam, body: jsonBody(PesquisaUpdate) },
  responses: { 200: jsonResponse(PesquisaSchema, 'Changed'), 404: errors[404], 409: errors[409] },
});

export const remove = authedRoute({
  ...base,
  method: 'delete',
  path: '/{id}',
  summary: 'Delete a survey without responses (with responses: 409 INVALID_STATE)',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, 404: errors[404], 409: errors[409] },
});

export const envios = authedRoute({
  ...base,
  method: 'post',
  path: '/{id}/envios',
  summary: 'E-mail one single-use link (14 days) per recipient; the survey must be ativa',
  description: 'Not ativa: 409 INVALID_STATE. `agenda_id` of the region, required with criterio questions.',
  request: { params: IdParam, body: jsonBody(EnvioRequest) },
  responses: {
    201: jsonResponse(EnvioResponse, 'Links created and e-mails queued'),
    404: errors[404],
    409: errors[409],
  },
});

export const resultados = authedRoute({
  ...base,
  method: 'get',
  path: '/{id}/resultados',
  summary: 'Results per question: n, media, distribuicao, nps, option counts, texts, per professional',
  description:
    'Only for an anonymous survey (a survey that is not anonymous shows every figure): every figure computed over fewer than ' +
    MIN_ANONIMO +
    " distinct responses is withheld (`retido: true`, figures null; `n` stays), counted in responses, not ratings, so one response rating a team of 3 shows none of them. A criterio question: a professional rated by fewer responses is withheld, and while any of its professionals is withheld, so are the figures over all its ratings (`media`, `distribuicao`), which with the others' figures would give that professional's ratings away. `n` is the number of answers (for a criterio question, of ratings).",
  request: { params: IdParam },
  responses: { 200: jsonResponse(ResultadosSchema, 'Results'), 404: errors[404] },
});

export const csv = authedRoute({
  ...base,
  method: 'get',
  path: '/{id}/respostas.csv',
  summary: 'The answers as CSV: one line per answer, or the figures of an anonymous survey (formula-escaped)',
  description: [
    '`,`-separated, UTF-8 with BOM, CRLF. A survey that is not anonymous: one line per answer (a criterio question one per professional), columns `resposta_id, data, email, agenda_id, pergunta_ordem, pergunta, profissional_id, profissional, valor` (`data` the exact time; multiple choices joined with `; `).',
    'An anonymous survey never has a line per answer: columns `pergunta_ordem, pergunta, profissional_id, profissional, medida, categoria, valor`, one figure of `/resultados` per line, under the same rule (anything over fewer than ' +
      MIN_ANONIMO +
      ' distinct responses is withheld). `medida`: `n` (every question), and for a question that is not withheld `media`, `nps`, `distribuicao` (`categoria` the value), `opcao` (`categoria` the option, also `sim`/`nao`) or `texto` (one free text per line, sorted by text, with nothing else on its line).',
    'A criterio question also gives `n` and `media` per professional rated by at least ' +
      MIN_ANONIMO +
      ' responses (`profissional_id`, `profissional`); a professional with fewer has no line, and while one has none the question has no figure over all its ratings (as in `/resultados`). No response id, date, e-mail or event. Numbers are written as they are (`-20`), text cells formula-escaped.',
  ].join('\n\n'),
  request: { params: IdParam },
  responses: {
    200: csvContent('CSV with a header row'),
    404: errors[404],
  },
});

const publicTags = ['Public surveys'];

export const publicGet = publicRoute({
  method: 'get',
  path: '/{token}',
  tags: publicTags,
  summary: "The survey of an e-mailed link, with the event's team for per-professional questions",
  description: 'Unknown, expired or used link: 404.',
  request: { params: TokenParam },
  responses: { 200: jsonResponse(PublicPesquisaSchema, 'The survey'), 404: errors[404] },
});

export const publicAnswer = publicRoute({
  method: 'post',
  path: '/{token}/respostas',
  tags: publicTags,
  summary: 'Answer the survey of a link (once)',
  description:
    'Each answer is checked against its question kind; required questions must be answered, criterio ones once per team member. Unknown, expired or used link: 404; of racing submissions one is stored.',
  request: { params: TokenParam, body: jsonBody(RespostasRequest) },
  responses: { 201: jsonResponse(MessageSchema, 'Stored'), 404: errors[404] },
});
