import { z } from '@hono/zod-openapi';
import { CHAMADO_CATEGORIAS, CHAMADO_PRIORIDADES, CHAMADO_STATUS } from '../../db/schema';
import { pageFields } from '../../lib/pagination';
import { partialUpdate, reqStr, uuid } from '../../lib/fields';
import { out } from '../openapi';

export const ChamadoRequest = z
  .object({
    assunto: reqStr(200),
    categoria: z.enum(CHAMADO_CATEGORIAS),
    mensagem: reqStr(5000),
    agenda_id: uuid().optional(),
    fot_id: uuid().optional(),
  })
  .openapi('ChamadoRequest');

export const ChamadoPatch = partialUpdate(
  {
    responsavel_id: uuid().nullable().optional(),
    status: z.enum(CHAMADO_STATUS).optional(),
    prioridade: z.enum(CHAMADO_PRIORIDADES).optional(),
  },
  'informe responsavel_id, status ou prioridade',
).openapi('ChamadoPatch');

export const MensagemRequest = z
  .object({
    corpo: reqStr(5000),
    interna: z.boolean().default(false).openapi({ description: 'nota interna: apenas administradores' }),
  })
  .openapi('ChamadoMensagemRequest');

export const ChamadoSchema = z
  .object({
    id: out.id(),
    regiao: out.regiao(),
    assunto: z.string(),
    categoria: z.enum(CHAMADO_CATEGORIAS),
    status: z.enum(CHAMADO_STATUS),
    prioridade: z.enum(CHAMADO_PRIORIDADES),
    solicitante_id: out.id(),
    solicitante_nome: z.string(),
    responsavel_id: out.id().nullable(),
    responsavel_nome: z.string().nullable(),
    agenda_id: out.id().nullable(),
    fot_id: out.id().nullable(),
    resolvido_em: out.timestamp().nullable(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Chamado');

export const ChamadoMensagemSchema = z
  .object({
    id: out.id(),
    autor_id: out.id().nullable(),
    autor_nome: z.string().nullable(),
    corpo: z.string(),
    interna: z.boolean(),
    created_at: out.timestamp(),
  })
  .openapi('ChamadoMensagem');

export const ChamadoDetailSchema = ChamadoSchema.extend({ mensagens: z.array(ChamadoMensagemSchema) }).openapi(
  'ChamadoDetalhe',
);

export const ChamadosQuery = z.object({
  status: z
    .enum(CHAMADO_STATUS)
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
  categoria: z
    .enum(CHAMADO_CATEGORIAS)
    .optional()
    .openapi({ param: { name: 'categoria', in: 'query' } }),
  responsavel_id: uuid()
    .optional()
    .openapi({ param: { name: 'responsavel_id', in: 'query' } }),
  ...pageFields,
});
