import { z } from '@hono/zod-openapi';
import { FERIADO_ESCOPOS, FERIADO_TIPOS } from '../../db/schema';
import { afterFields, isoDate, reqStr, uf, uuid } from '../../lib/fields';
import { pageFields } from '../../lib/pagination';
import { out } from '../openapi';
import { cidadeIbge, cidadeIbgeQuery } from '../places/cidades.schemas';

export const FeriadoRequest = z
  .object({
    data: isoDate(),
    nome: reqStr(120).openapi({ example: 'Aniversário de Florianópolis' }),
    tipo: z
      .enum(FERIADO_TIPOS)
      .openapi({ description: 'ponto_facultativo still counts as a business day; feriado and recesso do not' }),
    escopo: z.enum(['municipio', 'instituicao']).openapi({ description: 'national and state days come with the API' }),
    cidade_ibge: cidadeIbge().nullish().openapi({ description: 'the city of a municipal day' }),
    instituicao_id: uuid().nullish().openapi({ description: 'the institution of an institutional day' }),
  })
  .superRefine((b, ctx) => {
    if (b.escopo === 'municipio' && (b.cidade_ibge === null || b.cidade_ibge === undefined))
      ctx.addIssue({ code: 'custom', path: ['cidade_ibge'], message: 'é obrigatório num feriado municipal' });
    if (b.escopo === 'instituicao' && !b.instituicao_id)
      ctx.addIssue({ code: 'custom', path: ['instituicao_id'], message: 'é obrigatório num feriado da instituição' });
  }, afterFields)
  .openapi('FeriadoRequest');

export const FeriadoSchema = z
  .object({
    id: out.id(),
    data: out.date(),
    nome: z.string(),
    tipo: z.enum(FERIADO_TIPOS),
    escopo: z.enum(FERIADO_ESCOPOS),
    uf: out.ufOrNull(),
    cidade_ibge: z.number().int().nullable(),
    instituicao_id: out.id().nullable(),
    regiao: z.string().nullable().openapi({ description: 'null for the national and state days (every region)' }),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Feriado');

export const FeriadosQuery = z.object({
  de: isoDate()
    .optional()
    .openapi({ param: { name: 'de', in: 'query' } }),
  ate: isoDate()
    .optional()
    .openapi({ param: { name: 'ate', in: 'query' } }),
  uf: uf()
    .optional()
    .openapi({
      param: { name: 'uf', in: 'query' },
      description: "the days that hold in the state: national, the state's, its cities'",
    }),
  cidade_ibge: cidadeIbgeQuery()
    .optional()
    .openapi({
      param: { name: 'cidade_ibge', in: 'query' },
      description: "the days that hold in the city: national, its state's, its own",
    }),
  instituicao_id: uuid()
    .optional()
    .openapi({ param: { name: 'instituicao_id', in: 'query' }, description: "adds the institution's own days" }),
  ...pageFields,
});
