import { z } from '@hono/zod-openapi';
import { RECURSOS } from '../../db/schema';
import { hhmm, isoDate, uuid } from '../../lib/fields';
import { MAX_DIAS } from '../../services/planning/periodos';
import { out } from '../openapi';
import { cidadeIbge } from '../places/cidades.schemas';

/** Hypothetical events per simulation. */
export const MAX_SIMULADOS = 20;

const count = () => z.number().int().min(0).max(100_000).nullish();

export const CapacidadeQuery = z.object({
  de: isoDate().openapi({ param: { name: 'de', in: 'query' }, description: 'first day' }),
  ate: isoDate().openapi({
    param: { name: 'ate', in: 'query' },
    description: `last day (inclusive); at most ${MAX_DIAS} days from de`,
  }),
  funcao_id: uuid()
    .optional()
    .openapi({
      param: { name: 'funcao_id', in: 'query' },
      description: "one function's rows (no equipment rows); default every function of the region and the equipment",
    }),
  agrupar: z
    .enum(['dia', 'semana'])
    .optional()
    .openapi({
      param: { name: 'agrupar', in: 'query' },
      description: "`dia` (default) or `semana` (Monday to Sunday; the week's worst day decides its supply and status)",
    }),
});

export const CapacidadeLinhaSchema = z
  .object({
    periodo: out.date().openapi({ description: 'the day, or the Monday of the week' }),
    dia_critico: out
      .date()
      .openapi({ description: "the day whose supply, deficit and status the row shows (a week's worst)" }),
    tipo: z.enum(['funcao', 'equipamento']),
    funcao_id: out.id().nullable(),
    recurso: z.enum(RECURSOS).nullable(),
    nome: z.string().openapi({ description: "the function's name, or the resource's label" }),
    demanda_confirmada: z.number().int().openapi({
      description: "sum over the events of the team quota (or the event's legacy head count where no quota is set)",
    }),
    demanda_regras: z.number().int().openapi({
      description:
        "sum over the events with neither a quota nor a head count for it of what the company's and their institution's rules suggest from qtd_formandos when one sets a minimum (as GET /api/agenda/{id}/regras's quotas_sugeridas; docs/decisions.md#d26); counted in demanda_pico",
    }),
    demanda_pico: z.number().int().openapi({
      description:
        'the fewest people (pieces) covering the day: events whose windows, widened by travel and margin, do not overlap share them; each counts once per day (a week: its largest day)',
    }),
    pool: z
      .number()
      .int()
      .openapi({ description: "active holders of the function; for equipment, stock plus professionals' studios" }),
    indisponiveis: z.number().int().openapi({
      description:
        "holders with an `indisponivel` declaration meeting one of the day's events of the function (any hour, on a day without one); studios of such owners",
    }),
    ja_alocados: z
      .number()
      .int()
      .openapi({ description: 'professionals accepted for the function on the day (0 for equipment)' }),
    oferta_livre: z
      .number()
      .int()
      .openapi({ description: 'pool minus the unavailable and the holders accepted on any event of the day' }),
    deficit: z.number().int().openapi({ description: 'max(0, demanda_pico - ja_alocados - oferta_livre)' }),
    status: z.enum(['coberto', 'atencao', 'deficit']).openapi({
      description: '`deficit`; else `atencao` while oferta_livre is under 120% of the need still open; else `coberto`',
    }),
    eventos: z
      .array(z.string())
      .openapi({ description: 'ids of the events with demand (a simulated one: `simulacao-N`)' }),
  })
  .openapi('CapacidadeLinha');

export const CapacidadeSchema = z
  .object({
    de: out.date(),
    ate: out.date(),
    agrupar: z.enum(['dia', 'semana']),
    linhas: z.array(CapacidadeLinhaSchema),
  })
  .openapi('Capacidade');

const EventoSimulado = z.object({
  data_evento: isoDate(),
  horario: hhmm().nullish(),
  horario_fim: hhmm().nullish().openapi({ description: 'before horario means the next day; without it 5 hours' }),
  cidade_ibge: cidadeIbge().nullish().openapi({ description: 'an unknown code is 400' }),
  tipo_evento_id: uuid(),
  qtd_formandos: count().openapi({ description: 'with instituicao_id, what the rules size where no quota is set' }),
  instituicao_id: uuid()
    .nullish()
    .openapi({ description: "the class's institution (its rules); another region's is 404" }),
  equipe: z
    .array(z.object({ funcao_id: uuid(), quantidade: z.number().int().min(0).max(1000) }))
    .max(50)
    .refine((t) => new Set(t.map((i) => i.funcao_id)).size === t.length, 'funcao_id: cada função no máximo uma vez')
    .optional()
    .openapi({ description: 'its team quotas, as PUT /api/agenda/{id}/equipe would set them' }),
  qtd_fotografos: count(),
  qtd_cinegrafistas: count(),
  qtd_recepcionistas: count(),
  qtd_estudios: count(),
  qtd_ponto_foto: count(),
  qtd_ponto_id: count(),
  qtd_ponto_decorado: count(),
  qtd_pontos_led: count(),
  qtd_plataforma_360: count(),
});

export const SimulacaoRequest = z
  .object({
    de: isoDate()
      .optional()
      .openapi({ description: "first day of the answer; default the hypothetical events' first" }),
    ate: isoDate()
      .optional()
      .openapi({ description: `last day (inclusive), at most ${MAX_DIAS} days from de; default the events' last` }),
    funcao_id: uuid().optional().openapi({ description: "one function's rows (no equipment rows)" }),
    agrupar: z.enum(['dia', 'semana']).optional().openapi({ description: '`dia` (default) or `semana`' }),
    eventos: z.array(EventoSimulado).min(1).max(MAX_SIMULADOS),
  })
  .openapi('SimulacaoRequest');
