import { z } from '@hono/zod-openapi';
import { CAMPANHA_RESPOSTAS } from '../../db/schema';
import { afterFields, distinctList, isoDate, reqStr, uuid } from '../../lib/fields';
import { MAX_RANGE_DAYS } from '../../services/availability/disponibilidades';
import { out } from '../openapi';
import { daysBetween } from './disponibilidades.schemas';

export const CampanhaRequest = z
  .object({
    nome: reqStr(200),
    de: isoDate(),
    ate: isoDate(),
    funcao_ids: distinctList(uuid(), { min: 1, max: 20, message: 'funções repetidas' }),
    prazo: isoDate().openapi({ description: 'the last day (São Paulo) answers are taken; today or later' }),
  })
  .superRefine((b, ctx) => {
    if (b.ate < b.de) ctx.addIssue({ code: 'custom', path: ['ate'], message: 'deve ser igual ou posterior a de' });
    else if (daysBetween(b.de, b.ate) > MAX_RANGE_DAYS)
      ctx.addIssue({ code: 'custom', path: ['ate'], message: `no máximo ${MAX_RANGE_DAYS} dias depois de de` });
    if (b.prazo > b.ate) ctx.addIssue({ code: 'custom', path: ['prazo'], message: 'não pode ser depois de ate' });
  }, afterFields)
  .openapi('CampanhaDisponibilidadeRequest');

export const CampanhaSchema = z
  .object({
    id: out.id(),
    regiao: out.regiao(),
    nome: z.string(),
    de: out.date(),
    ate: out.date(),
    prazo: out.date(),
    funcao_ids: z.array(out.id()),
    encerrada_em: out.timestamp().nullable(),
    lembrete_em: out.timestamp().nullable().openapi({ description: 'when the silent were reminded' }),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('CampanhaDisponibilidade');

const RespostaItem = z.object({ data: isoDate(), resposta: z.enum(CAMPANHA_RESPOSTAS) });

export const CampanhaDetalheSchema = CampanhaSchema.extend({
  minhas_respostas: z
    .array(z.object({ data: out.date(), resposta: z.enum(CAMPANHA_RESPOSTAS) }))
    .openapi({ description: "the caller's own answer (empty for an administrator)" }),
}).openapi('CampanhaDisponibilidadeDetalhe');

export const RespostasRequest = z
  .object({
    datas: z
      .array(RespostaItem)
      .max(MAX_RANGE_DAYS + 1)
      .refine((items) => new Set(items.map((i) => i.data)).size === items.length, 'cada data no máximo uma vez')
      .openapi({ uniqueItems: true }),
  })
  .openapi('CampanhaRespostasRequest');

export const RespostasSchema = z
  .object({
    campanha_id: out.id(),
    respondido_em: out.timestamp(),
    datas: z.array(z.object({ data: out.date(), resposta: z.enum(CAMPANHA_RESPOSTAS) })),
  })
  .openapi('CampanhaRespostas');

export const ResultadoSchema = z
  .object({
    campanha_id: out.id(),
    linhas: z.array(
      z.object({
        data: out.date(),
        funcao_id: out.id(),
        funcao_nome: z.string(),
        titulares: z.number().int(),
        sim: z.number().int(),
        talvez: z.number().int(),
        nao: z.number().int(),
        sem_resposta: z.number().int().openapi({ description: 'holders with no answer for that date' }),
      }),
    ),
  })
  .openapi('CampanhaResultado');
