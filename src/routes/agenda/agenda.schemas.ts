import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { pageFields } from '../../lib/pagination';
import { afterFields, hhmm, isoDate, optStr, uuid } from '../../lib/fields';
import { cidadeIbge, cidadeRefOrNull } from '../places/cidades.schemas';

const count = () => z.number().int().min(0).max(100_000).nullish();

const fields = {
  fot_id: uuid(),
  tipo_evento_id: uuid(),
  data_evento: isoDate(),
  horario: hhmm().nullish(),
  horario_fim: hhmm().nullish().openapi({
    description:
      'end of the event (HH:MM); before horario means the next day; without it the event lasts 5 hours (double booking, docs/decisions.md#d11)',
  }),
  local_evento: optStr(200),
  endereco: optStr(300),
  cidade_ibge: cidadeIbge()
    .nullish()
    .openapi({ description: "the event's city (GET /api/cidades); an unknown code is 400" }),
  latitude: z.number().min(-90).max(90).nullish().openapi({
    description: "the venue's latitude; latitude and longitude are sent together or not at all (else 400)",
  }),
  longitude: z
    .number()
    .min(-180)
    .max(180)
    .nullish()
    .openapi({ description: "the venue's longitude (with latitude, or neither)" }),
  observacoes_evento: optStr(4000),
  logistica_observacoes: optStr(4000),
  status_profissionais: optStr(50),
  pre_venda: z.boolean().nullish(),
  qtd_formandos: count(),
  qtd_fotografos: count(),
  qtd_cinegrafistas: count(),
  qtd_recepcionistas: count(),
  qtd_estudios: count(),
  qtd_ponto_foto: count(),
  qtd_ponto_id: count(),
  qtd_ponto_decorado: count(),
  qtd_pontos_led: count(),
  qtd_plataforma_360: count(),
  foto_faltante: count(),
  cine_faltante: count(),
  recep_faltante: count(),
  chave_externa: optStr(100).openapi({
    description: "the event's key in the client's spreadsheet, unique per region: a re-import updates the event",
  }),
};

export const CreateAgendaRequest = z.object(fields).openapi('CreateAgendaRequest', {
  description: 'fot_id, tipo_evento_id and data_evento are required on create; PUT changes the fields sent',
});

export const UpdateAgendaRequest = z.object(fields).partial().openapi('UpdateAgendaRequest');

export type AgendaInput = z.infer<typeof UpdateAgendaRequest>;

export const EquipeItemSchema = z
  .object({
    funcao_id: out.id(),
    funcao_nome: z.string(),
    quantidade: z.number().int(),
    publicar: z.boolean(),
    requer_aprovacao: z.boolean(),
    aceitos: z.number().int(),
    pendentes: z.number().int().openapi({ description: '`pendente` invitations and `solicitado` applications' }),
    lista_espera: z.number().int().openapi({ description: 'invitations in `espera` (waiting list)' }),
    faltantes: z.number().int(),
  })
  .openapi('EquipeItem');

const n = () => z.number().int().nullable();
const s = () => z.string().nullable();

export const AgendaSchema = z
  .object({
    id: out.id(),
    user_id: out.id().nullable(),
    regiao: out.regiao(),
    fot_id: out.id(),
    tipo_evento_id: out.id(),
    data_evento: out.date(),
    horario: out.time().nullable(),
    horario_fim: out.time().nullable(),
    local_evento: s(),
    endereco: s(),
    cidade_ibge: z.number().int().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    cidade: cidadeRefOrNull(),
    observacoes_evento: s(),
    logistica_observacoes: s(),
    status_profissionais: s(),
    pre_venda: z.boolean().nullable(),
    qtd_formandos: n(),
    qtd_fotografos: n(),
    qtd_cinegrafistas: n(),
    qtd_recepcionistas: n(),
    qtd_estudios: n(),
    qtd_ponto_foto: n(),
    qtd_ponto_id: n(),
    qtd_ponto_decorado: n(),
    qtd_pontos_led: n(),
    qtd_plataforma_360: n(),
    foto_faltante: n(),
    cine_faltante: n(),
    recep_faltante: n(),
    chave_externa: s(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
    fot: z.object({
      id: out.id(),
      fot: z.number().int(),
      instituicao: s(),
      cidade: s(),
      estado: out.ufOrNull(),
      empresa_nome: z.string(),
      curso_nome: z.string(),
      ano_formatura_label: z.string(),
    }),
    tipo_evento: z.object({ id: out.id(), nome: z.string() }),
    equipe: z.array(EquipeItemSchema).openapi({
      description:
        'team quota per function with accepted, pending and missing counts; once set, *_faltante and status_profissionais follow from it',
    }),
  })
  .openapi('AgendaResponse');

export type AgendaResponse = z.infer<typeof AgendaSchema>;

export const AgendaListQuery = z
  .object({
    de: isoDate()
      .optional()
      .openapi({ param: { name: 'de', in: 'query' }, description: 'from this date (inclusive)' }),
    ate: isoDate()
      .optional()
      .openapi({ param: { name: 'ate', in: 'query' }, description: 'up to this date (inclusive)' }),
    fot_id: uuid()
      .optional()
      .openapi({ param: { name: 'fot_id', in: 'query' } }),
    ...pageFields,
  })
  .refine((q) => !q.de || !q.ate || q.de <= q.ate, {
    path: ['ate'],
    message: 'deve ser igual ou posterior a de',
    ...afterFields,
  });
