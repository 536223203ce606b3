import { z } from '@hono/zod-openapi';
import { CRITERIOS, PERGUNTA_TIPOS, PESQUISA_PUBLICOS, PESQUISA_STATUS } from '../../db/schema';
import { afterFields, distinctList, email, optStr, partialUpdate, reqStr, uuid } from '../../lib/fields';
import { pageFields } from '../../lib/pagination';
import { out } from '../openapi';

const choiceKinds = new Set(['escolha_unica', 'escolha_multipla']);

export const PerguntaRequest = z
  .object({
    texto: reqStr(500),
    tipo: z.enum(PERGUNTA_TIPOS),
    obrigatoria: z.boolean().default(false),
    opcoes: distinctList(reqStr(200), { min: 2, max: 20, message: 'opções repetidas' }).nullish(),
    criterio: z.enum(CRITERIOS).nullish(),
  })
  .superRefine((q, ctx) => {
    if (choiceKinds.has(q.tipo)) {
      if (!q.opcoes) ctx.addIssue({ code: 'custom', path: ['opcoes'], message: 'obrigatório em perguntas de escolha' });
    } else if (q.opcoes) ctx.addIssue({ code: 'custom', path: ['opcoes'], message: 'só cabe em perguntas de escolha' });
    if (q.criterio && q.tipo !== 'nota_1_5')
      ctx.addIssue({ code: 'custom', path: ['criterio'], message: 'só cabe em perguntas nota_1_5' });
  }, afterFields)
  .openapi('PerguntaRequest', {
    description: '`opcoes` only (and required) for escolha_*; `criterio` only on nota_1_5 (asked once per team member)',
  });

const perguntas = z.array(PerguntaRequest).max(50);

export const PesquisaCreate = z
  .object({
    titulo: reqStr(200),
    publico: z.enum(PESQUISA_PUBLICOS),
    anonima: z.boolean().default(false),
    tipo_evento_id: uuid().nullish(),
    status: z.enum(PESQUISA_STATUS).default('rascunho'),
    perguntas: perguntas.default([]),
  })
  .openapi('PesquisaRequest');

export const PesquisaUpdate = partialUpdate(
  {
    titulo: reqStr(200).optional(),
    publico: z.enum(PESQUISA_PUBLICOS).optional(),
    anonima: z.boolean().optional(),
    tipo_evento_id: uuid().nullish(),
    status: z.enum(PESQUISA_STATUS).optional(),
    perguntas: perguntas.optional(),
  },
  'informe ao menos um campo',
).openapi('PesquisaUpdate', { description: 'Fields sent change; `perguntas` replaces every question' });

export const PerguntaSchema = z
  .object({
    id: out.id(),
    ordem: z.number().int(),
    texto: z.string(),
    tipo: z.enum(PERGUNTA_TIPOS),
    obrigatoria: z.boolean(),
    opcoes: z.array(z.string()).nullable(),
    criterio: z.enum(CRITERIOS).nullable(),
  })
  .openapi('Pergunta');

export const PesquisaSchema = z
  .object({
    id: out.id(),
    regiao: out.regiao(),
    titulo: z.string(),
    publico: z.enum(PESQUISA_PUBLICOS),
    anonima: z.boolean(),
    tipo_evento_id: out.id().nullable(),
    status: z.enum(PESQUISA_STATUS),
    criado_por: out.id().nullable(),
    respostas: z.number().int().openapi({ description: 'responses stored so far' }),
    perguntas: z.array(PerguntaSchema),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Pesquisa');

export const PesquisasQuery = z.object({
  status: z
    .enum(PESQUISA_STATUS)
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
  ...pageFields,
});

export const EnvioRequest = z
  .object({
    agenda_id: uuid().optional(),
    destinatarios: z
      .array(z.object({ email: email(), nome: optStr(200) }))
      .min(1)
      // Two statements per recipient in one batch: D1 counts each against the queries of a request.
      .max(50),
  })
  .openapi('PesquisaEnvioRequest', {
    description: '`agenda_id` is required when the survey has questions per professional (criterio)',
  });

export const EnvioResponse = z
  .object({ enviados: z.number().int(), expira_em: out.timestamp() })
  .openapi('PesquisaEnvioResponse');

const Figures = {
  n: z.number().int(),
  retido: z.boolean().openapi({
    description:
      'anonymous survey only: fewer than 3 distinct responses (or, for a whole criterio question, any of its professionals withheld): figures withheld',
  }),
  media: z.number().nullable(),
};

export const ResultadosSchema = z
  .object({
    pesquisa_id: out.id(),
    titulo: z.string(),
    anonima: z.boolean(),
    respostas: z.number().int(),
    perguntas: z.array(
      z.object({
        pergunta_id: out.id(),
        ordem: z.number().int(),
        texto: z.string(),
        tipo: z.enum(PERGUNTA_TIPOS),
        criterio: z.enum(CRITERIOS).nullable(),
        ...Figures,
        distribuicao: z.record(z.string(), z.number().int()).nullable(),
        nps: z.number().nullable().openapi({ description: '% of 9-10 minus % of 0-6' }),
        opcoes: z.array(z.object({ opcao: z.string(), total: z.number().int() })).nullable(),
        textos: z.array(z.string()).nullable(),
        por_profissional: z
          .array(z.object({ profissional_id: out.id(), nome: z.string().nullable(), ...Figures }))
          .nullable(),
      }),
    ),
  })
  .openapi('PesquisaResultados');

export const TokenParam = z.object({
  token: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'token', in: 'path' }, description: 'the token of the e-mailed link' }),
});

export const PublicPesquisaSchema = z
  .object({
    titulo: z.string(),
    publico: z.enum(PESQUISA_PUBLICOS),
    anonima: z.boolean(),
    perguntas: z.array(PerguntaSchema),
    equipe: z.array(z.object({ profissional_id: out.id(), nome: z.string(), funcao_nome: z.string() })).openapi({
      description: "the event's accepted team, asked once each in `criterio` questions (empty without them)",
    }),
  })
  .openapi('PesquisaPublica');

export const RespostasRequest = z
  .object({
    respostas: z
      .array(
        z.object({
          pergunta_id: uuid(),
          profissional_id: uuid().optional(),
          valor: z.union([
            z.number(),
            reqStr(2000),
            z.boolean(),
            // Checked against the question (services/surveys/respostas.ts validateRespostas): the options chosen
            // in an escolha_multipla answer, at least one, none twice.
            z.array(reqStr(200)).max(20).openapi({ minItems: 1, uniqueItems: true }),
          ]),
        }),
      )
      .min(1)
      // 50 questions at most; a criterio one counts once per team member.
      .max(300),
  })
  .openapi('PesquisaRespostasRequest');
