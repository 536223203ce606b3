import { z } from '@hono/zod-openapi';
import { FALTA_STATUS, PRESENCA_ORIGENS, PRESENCA_SITUACOES, PRESENCA_TIPOS } from '../../db/schema';
import { isIsoInstant } from '../../lib/dates';
import { INSTANT_PATTERN, optStr, partialUpdate, reqStr, uuid } from '../../lib/fields';
import { MAX_LEITURAS } from '../../services/checkin/pessoal';
import { out } from '../openapi';

const token = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'deve ser um código de check-in (base64url)')
    .openapi({ pattern: '^[A-Za-z0-9_-]+$', example: 'AQABEjRWeJq8TeKb3NQSNFZ4mry8AAeKM3FXmCbWS8cPvxJ3' });

const JanelaSchema = z
  .object({
    abre_em: out.timestamp(),
    fecha_entrada_em: out.timestamp(),
    fecha_saida_em: out.timestamp(),
    referencia_em: out.timestamp().nullable().openapi({
      description: 'what atraso_min counts from: the call time, or the start; null for an event without hours',
    }),
  })
  .openapi('CheckinJanela');

export const CheckinSettingsSchema = z
  .object({
    agenda_id: out.id(),
    raio_checkin_m: z.number().int(),
    checkin_abre_min: z.number().int(),
    checkin_fecha_min: z.number().int(),
    exige_localizacao: z.boolean(),
    chave_versao: z.number().int(),
    coordenador: z
      .object({ convite_id: out.id(), profissional_id: out.id(), nome: z.string() })
      .nullable()
      .openapi({ description: 'while its invitation is aceito' }),
    local: z
      .object({ latitude: z.number(), longitude: z.number() })
      .nullable()
      .openapi({ description: "the venue's coordinates (the event's); null: the geofence cannot be measured" }),
    janela: JanelaSchema,
  })
  .openapi('CheckinSettings');

export const CheckinSettingsRequest = partialUpdate(
  {
    raio_checkin_m: z.number().int().min(50).max(5000).optional(),
    checkin_abre_min: z.number().int().min(0).max(720).optional(),
    checkin_fecha_min: z.number().int().min(0).max(720).optional(),
    exige_localizacao: z.boolean().optional(),
    coordenador_convite_id: uuid()
      .nullable()
      .optional()
      .openapi({ description: 'an aceito invitation of the event (administrators only); null: no coordinator' }),
  },
  'informe ao menos um campo',
).openapi('CheckinSettingsRequest');

export const EventQrSchema = z
  .object({
    token: z.string(),
    url: z.string().openapi({ description: 'APP_URL/checkin?c=<token>: what the QR encodes' }),
    expira_em: out
      .timestamp()
      .openapi({ description: 'when the next code is due (this one is still accepted for one more step)' }),
    passo_s: z.number().int(),
    chave_versao: z.number().int(),
  })
  .openapi('CheckinQr');

export const EventKeySchema = z
  .object({
    agenda_id: out.id(),
    chave: z.string().openapi({ description: 'k_event, base64url: draws the codes offline (docs/guide/checkin.md)' }),
    chave_versao: z.number().int(),
    passo_s: z.number().int(),
    janela: JanelaSchema,
  })
  .openapi('CheckinChave');

export const PresencaSchema = z
  .object({
    id: out.id(),
    convite_id: out.id(),
    agenda_id: out.id(),
    profissional_id: out.id(),
    tipo: z.enum(PRESENCA_TIPOS),
    momento: out.timestamp(),
    origem: z.enum(PRESENCA_ORIGENS),
    offline: z.boolean(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    precisao_m: z.number().nullable(),
    distancia_m: z.number().int().nullable(),
    dentro_raio: z.boolean().nullable(),
    situacao: z.enum(PRESENCA_SITUACOES),
    atraso_min: z.number().int().nullable(),
    motivo: z.string().nullable(),
    registrado_por: out.id().nullable(),
    revisado_por: out.id().nullable(),
    revisado_em: out.timestamp().nullable(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Presenca');

export const PresencaRequest = z
  .object({
    token: token(),
    tipo: z.enum(PRESENCA_TIPOS),
    latitude: z
      .number()
      .min(-90)
      .max(90)
      .optional()
      .openapi({ description: 'with longitude; one without the other counts as no position' }),
    longitude: z.number().min(-180).max(180).optional(),
    precisao_m: z.number().min(0).max(100_000).optional(),
  })
  .openapi('PresencaRequest');

const instant = () =>
  z
    .string()
    .trim()
    .refine(isIsoInstant, 'deve ser um instante ISO-8601 UTC (AAAA-MM-DDTHH:MM:SSZ)')
    .openapi({ format: 'date-time', pattern: INSTANT_PATTERN, example: '2027-05-10T22:05:00.000Z' });

export const ManualRequest = z
  .object({
    convite_id: uuid(),
    tipo: z.enum(PRESENCA_TIPOS),
    momento: instant(),
    motivo: reqStr(500),
  })
  .openapi('PresencaManualRequest');

export const RevisaoRequest = z
  .object({
    situacao: z.enum(['ok', 'invalida']),
    motivo: optStr(500),
  })
  .openapi('PresencaRevisaoRequest');

export const LeiturasRequest = z
  .object({
    tokens: z.array(token()).min(1).max(MAX_LEITURAS),
    tipo: z.enum(PRESENCA_TIPOS).optional().openapi({ description: 'default entrada' }),
  })
  .openapi('LeiturasRequest');

export const LeiturasSchema = z
  .object({
    resultados: z.array(
      z.object({
        token: z.string(),
        status: z.enum(['registrada', 'ja_registrada', 'recusada']),
        code: z.string().nullable().openapi({ description: 'why it was refused (an error code)' }),
        erro: z.string().nullable(),
        convite_id: out.id().nullable(),
        nome: z.string().nullable(),
        funcao: z.string().nullable(),
        avatar_url: z.string().nullable(),
        presenca: PresencaSchema.nullable(),
      }),
    ),
  })
  .openapi('Leituras');

export const PersonalQrSchema = z
  .object({
    token: z.string(),
    convite_id: out.id(),
    gerado_em: out.timestamp(),
    expira_em: out.timestamp().openapi({ description: 'read after this, the code is refused (12 h after gerado_em)' }),
    passo_s: z.number().int(),
  })
  .openapi('CheckinQrPessoal');

export const FaltaSchema = z
  .object({
    convite_id: out.id(),
    agenda_id: out.id(),
    profissional_id: out.id(),
    status: z.enum(FALTA_STATUS),
    provavel_em: out.timestamp().nullable(),
    confirmada_em: out.timestamp().nullable(),
    confirmada_por: out.id().nullable(),
    motivo: z.string().nullable(),
  })
  .openapi('Falta');

export const FaltaRequest = z.object({ motivo: optStr(500) }).openapi('FaltaRequest');

const TeamMemberFull = z
  .object({
    convite_id: out.id(),
    profissional_id: out.id(),
    nome: z.string(),
    avatar_url: z.string().nullable(),
    funcao_id: out.id(),
    funcao_nome: z.string(),
    coordenador: z.boolean(),
    chegou: z.boolean(),
    entrada: PresencaSchema.nullable(),
    saida: PresencaSchema.nullable(),
    atraso_min: z.number().int().nullable(),
    situacao: z.enum(PRESENCA_SITUACOES).nullable(),
    falta: FaltaSchema.nullable(),
  })
  .openapi('PresencaEquipe');

const TeamMemberOwner = z
  .object({ nome: z.string(), funcao_nome: z.string(), chegou: z.boolean() })
  .strict()
  .openapi('PresencaEquipeResumo');

export const ListaSchema = z.array(z.union([TeamMemberFull, TeamMemberOwner]));
