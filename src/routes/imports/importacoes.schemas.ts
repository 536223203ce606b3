import { z } from '@hono/zod-openapi';
import { IMPORT_STATUS, IMPORT_TIPOS, LANCAMENTO_STATUS, TIPO_LANCAMENTO, type ImportTipo } from '../../db/schema';
import { codeToStatus, type ErrorCode } from '../../lib/errors';
import { afterFields, isoDate, optStr, positiveMoney, reqStr, uuid } from '../../lib/fields';
import type { RowSchemas } from '../../services/imports/columns';
import { CreateAgendaRequest } from '../agenda/agenda.schemas';
import { CreateFotRequest } from '../records/cadastro-fot.schemas';
import { CreateProfissionalInput } from '../professionals/profissionais.schemas';
import { out } from '../openapi';

/**
 * A finance entry line (D18), from the same field builders. The entries' own create route (issue 16)
 * is not on this branch yet: when it lands, its body schema replaces this one here.
 */
const LancamentoLinha = z.object({
  tipo: z.enum(TIPO_LANCAMENTO),
  categoria_id: uuid(),
  descricao: reqStr(300),
  valor: positiveMoney(),
  vencimento: isoDate(),
  status: z.enum(LANCAMENTO_STATUS).nullish(),
  pago_em: isoDate().nullish(),
  fot_id: uuid().nullish(),
  agenda_id: uuid().nullish(),
  profissional_id: uuid().nullish(),
  chave_externa: optStr(100),
});

/** Each row is validated by the body schema of the kind's own create route: one set of rules. */
export const rowSchemas: RowSchemas = {
  profissionais: CreateProfissionalInput,
  'cadastro-fot': CreateFotRequest,
  agenda: CreateAgendaRequest,
  lancamentos: LancamentoLinha,
};

const tipo = z.enum(IMPORT_TIPOS);

export const TipoQuery = z.object({
  tipo: tipo.openapi({ param: { name: 'tipo', in: 'query' }, example: 'profissionais' }),
});

const FILES = IMPORT_TIPOS.map((t) => `${t}.csv` as const);
type File = (typeof FILES)[number];

/**
 * `{tipo}.csv` as one path segment: the router takes `:tipo.csv` for a parameter named `tipo.csv`, so
 * the segment is the file name (`agenda.csv`), and the kind is its stem.
 */
export const ArquivoParam = z.object({
  arquivo: z
    .enum(FILES as [File, ...File[]])
    .transform((f) => f.slice(0, -'.csv'.length) as ImportTipo)
    .openapi({ param: { name: 'arquivo', in: 'path' }, example: 'profissionais.csv', description: '`<tipo>.csv`' }),
});

export const ExportQuery = z
  .object({
    de: isoDate()
      .optional()
      .openapi({
        param: { name: 'de', in: 'query' },
        description: 'from this day (inclusive): event date for agenda, creation day otherwise',
      }),
    ate: isoDate()
      .optional()
      .openapi({ param: { name: 'ate', in: 'query' }, description: 'up to this day (inclusive)' }),
  })
  .refine((q) => !q.de || !q.ate || q.de <= q.ate, {
    path: ['ate'],
    message: 'deve ser igual ou posterior a de',
    ...afterFields,
  });

const ImportErrorSchema = z
  .object({
    linha: z.number().int().openapi({ description: 'line as a spreadsheet shows it (header = 1)' }),
    coluna: z.string().nullable().openapi({ description: 'header name of the column; null for the whole line' }),
    code: z.enum(Object.keys(codeToStatus) as [ErrorCode, ...ErrorCode[]]),
    error: z.string(),
  })
  .openapi('ImportError');

export const ImportSchema = z
  .object({
    id: out.id(),
    tipo,
    status: z.enum(IMPORT_STATUS).openapi({ description: 'validado, com_erros or aplicado' }),
    total: z.number().int().openapi({ description: 'data lines of the file' }),
    por_acao: z.object({
      criar: z.number().int(),
      atualizar: z.number().int().openapi({ description: 'lines matching a record whose values differ' }),
      sem_alteracao: z.number().int().openapi({ description: 'lines matching a record with the same values' }),
      erro: z.number().int().openapi({ description: 'lines with at least one error' }),
    }),
    erros: z.array(ImportErrorSchema),
    created_at: out.timestamp(),
    aplicado_em: out.timestamp().nullable(),
  })
  .openapi('Importacao');
