import { z } from '@hono/zod-openapi';
import { instituicoes } from '../../db/schema';
import { optStr, reqStr } from '../../lib/fields';
import type { CatalogTable } from '../../db/schema';
import { instituicaoColumns, instituicaoWriteError } from '../../services/catalogs/instituicoes';
import { cidadeIbge, cidadeRefOrNull } from '../places/cidades.schemas';
import { catalogResponseShape, type CatalogConfig } from './catalogs.schemas';

/** Institutions: the seventh catalog (docs/decisions.md#d23), with an acronym and a city of their own. */
export const instituicoesConfig = {
  // The same columns as every catalog, plus its own (given by `columns`).
  table: instituicoes as unknown as CatalogTable,
  path: '/api/instituicoes',
  field: 'nome',
  maxLength: 200,
  example: 'Universidade Estadual de Campinas',
  schemaNames: { request: 'CreateInstituicaoRequest', response: 'InstituicaoResponse' },
  tag: 'Places',
  noun: 'instituicao',
  notFound: 'instituição não encontrada',
  deleteStyle: 'no-content',
  columns: (body, create) => instituicaoColumns(body, create),
  writeError: instituicaoWriteError,
} as const satisfies CatalogConfig;

export const CreateInstituicaoRequest = z
  .object({
    nome: reqStr(200).openapi({ example: instituicoesConfig.example }),
    sigla: optStr(30).openapi({ example: 'Unicamp' }),
    cidade_ibge: cidadeIbge()
      .nullish()
      .openapi({ description: 'the IBGE code of its city (GET /api/cidades); an unknown code is 400' }),
  })
  .openapi(instituicoesConfig.schemaNames.request, {
    description: 'PUT takes the same body: nome always, sigla and cidade_ibge change when sent (null clears them)',
  });

export const InstituicaoResponse = z
  .object({
    ...catalogResponseShape('nome'),
    sigla: z.string().nullable(),
    cidade: cidadeRefOrNull(),
  })
  .openapi(instituicoesConfig.schemaNames.response);

export const VincularResponse = z
  .object({
    vinculados: z.number().int().openapi({ description: 'FOT records linked by this call' }),
    sem_correspondencia: z.array(z.string()).openapi({
      description:
        'the distinct free texts of unlinked records that match no catalog name (or two), in alphabetical order',
    }),
  })
  .openapi('VincularInstituicoesResponse');
