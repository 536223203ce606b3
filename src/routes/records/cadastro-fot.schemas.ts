import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { pageFields } from '../../lib/pagination';
import { money, optStr, optUf, uuid } from '../../lib/fields';

const fields = {
  fot: z.number().int().positive().max(2_147_483_647).openapi({ example: 4521 }),
  empresa_id: uuid(),
  curso_id: uuid(),
  ano_formatura_id: uuid(),
  instituicao: optStr(200),
  instituicao_id: uuid().nullish().openapi({
    description: 'an institution of the region (/api/instituicoes); when set, `instituicao` answers its name',
  }),
  cidade: optStr(100),
  estado: optUf(),
  observacoes: optStr(2000),
  gastos_captacao: money().nullish(),
  pre_venda: z.boolean().nullish(),
};

export const CreateFotRequest = z
  .object(fields)
  .openapi('CreateInput', { description: 'fot, empresa_id, curso_id and ano_formatura_id are required on create' });

export const UpdateFotRequest = z
  .object(fields)
  .partial()
  .openapi('UpdateCadastroFotInput', { description: 'Only the fields sent change' });

export type FotInput = z.infer<typeof UpdateFotRequest>;

export const FotSchema = z
  .object({
    id: out.id(),
    fot: z.number().int(),
    regiao: out.regiao(),
    empresa_id: out.id(),
    empresa_nome: z.string(),
    curso_id: out.id(),
    curso_nome: z.string(),
    ano_formatura_id: out.id(),
    ano_formatura_label: z.string(),
    instituicao: z
      .string()
      .nullable()
      .openapi({ description: "the catalog's name when instituicao_id is set, else the free text" }),
    instituicao_id: out.id().nullable(),
    cidade: z.string().nullable(),
    estado: out.ufOrNull(),
    observacoes: z.string().nullable(),
    gastos_captacao: z.number().openapi({ multipleOf: 0.01 }).nullable(),
    pre_venda: z.boolean(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('CadastroFotResponse');

export const FotListQuery = z.object({
  empresa_id: uuid()
    .optional()
    .openapi({ param: { name: 'empresa_id', in: 'query' }, description: 'only the records of this company' }),
  ...pageFields,
});
