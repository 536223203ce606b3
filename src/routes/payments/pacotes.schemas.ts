import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { pageFields } from '../../lib/pagination';
import { optStr, positiveMoney, reqStr } from '../../lib/fields';

const fields = {
  nome: reqStr(200).openapi({ example: 'Álbum completo' }),
  descricao: optStr(2000),
  preco: positiveMoney().openapi({ example: 890.0, description: 'BRL' }),
  parcelas_max: z
    .number()
    .int()
    .min(1)
    .max(12)
    .openapi({ example: 10, description: 'most installments a buyer may choose' }),
  ativo: z.boolean().openapi({ description: 'inactive packages are not sold (nor listed to non-administrators)' }),
};

export const CreatePacoteRequest = z
  .object({ ...fields, parcelas_max: fields.parcelas_max.default(1), ativo: fields.ativo.default(true) })
  .openapi('CreatePacoteInput', {
    description: 'nome and preco are required; parcelas_max defaults to 1, ativo to true',
  });

export const UpdatePacoteRequest = z
  .object(fields)
  .partial()
  .openapi('UpdatePacoteInput', { description: 'Only the fields sent change; orders already made keep their price' });

export const PacoteSchema = z
  .object({
    id: out.id(),
    regiao: out.regiao(),
    nome: z.string(),
    descricao: z.string().nullable(),
    preco: z.number().openapi({ description: 'BRL' }),
    parcelas_max: z.number().int(),
    ativo: z.boolean(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Pacote');

export const PacoteListQuery = z.object({
  ativo: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .openapi({
      param: { name: 'ativo', in: 'query' },
      description: 'administrators only; others always see active ones',
    }),
  ...pageFields,
});
