import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { TRANSPORTES } from '../../db/schema';
import { hhmm, isoDate, isoDateOrInstant, optStr } from '../../lib/fields';

const fields = {
  horario_chegada: hhmm().nullish(),
  ponto_encontro: optStr(200),
  endereco_encontro: optStr(300),
  transporte: z.enum(TRANSPORTES).nullish(),
  horario_saida_van: hhmm().nullish(),
  estacionamento: optStr(300),
  traje: optStr(200),
  retirada_equipamento: optStr(300),
  devolucao_equipamento: optStr(300),
  contato_nome: optStr(120),
  contato_telefone: optStr(40),
  prazo_credenciamento: isoDate().nullish(),
  credenciamento_enviado_em: isoDateOrInstant().nullish().openapi({
    description:
      'when the credential list went to the institution (docs/decisions.md#d25): ends its reminder; null reopens it',
  }),
  observacoes: optStr(4000),
};

export const LogisticaRequest = z.object(fields).openapi('LogisticaRequest', {
  description: 'Changes the fields sent; absent fields are kept, null clears one',
});

const s = () => z.string().nullable();

export const LogisticaSchema = z
  .object({
    agenda_id: out.id(),
    horario_chegada: out.time().nullable(),
    ponto_encontro: s(),
    endereco_encontro: s(),
    transporte: z.enum(TRANSPORTES).nullable(),
    horario_saida_van: out.time().nullable(),
    estacionamento: s(),
    traje: s(),
    retirada_equipamento: s(),
    devolucao_equipamento: s(),
    contato_nome: s(),
    contato_telefone: s(),
    prazo_credenciamento: out.date().nullable(),
    credenciamento_enviado_em: z.string().nullable().openapi({ description: 'a date or an instant, as sent' }),
    observacoes: s(),
    versao: z.number().int().min(1).openapi({ description: 'starts at 1; +1 per PUT that changes something' }),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('LogisticaResponse');
