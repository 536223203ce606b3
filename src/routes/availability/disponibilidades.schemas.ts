import { z } from '@hono/zod-openapi';
import { DISPONIBILIDADE_ORIGENS, DISPONIBILIDADE_TIPOS } from '../../db/schema';
import { utcMs } from '../../lib/dates';
import { afterFields, distinctList, hhmm, isoDate, optStr, uuid } from '../../lib/fields';
import { MAX_RANGE_DAYS } from '../../services/availability/disponibilidades';
import { out } from '../openapi';

const dayNumber = (d: string) => {
  const [y, m, dd] = d.split('-').map(Number) as [number, number, number];
  return utcMs(y, m, dd) / 86_400_000;
};
/** Days from `a` to `b` (YYYY-MM-DD). */
export const daysBetween = (a: string, b: string) => dayNumber(b) - dayNumber(a);

export const DisponibilidadeRequest = z
  .object({
    tipo: z.enum(DISPONIBILIDADE_TIPOS),
    data_inicio: isoDate(),
    data_fim: isoDate().optional().openapi({ description: 'the last day (inclusive); default data_inicio' }),
    hora_inicio: hhmm()
      .optional()
      .openapi({ description: 'with hora_fim: those hours of each day; without: the whole day' }),
    hora_fim: hhmm().optional(),
    dias_semana: distinctList(z.number().int().min(0).max(6), {
      min: 1,
      max: 7,
      message: 'dias da semana repetidos',
    })
      .optional()
      .openapi({ description: 'weekdays it repeats on inside the range, 0 Sunday ... 6 Saturday; default every day' }),
    motivo: optStr(500).openapi({ description: 'private: read only by the professional and administrators' }),
  })
  .superRefine((b, ctx) => {
    const fim = b.data_fim ?? b.data_inicio;
    if (fim < b.data_inicio)
      ctx.addIssue({ code: 'custom', path: ['data_fim'], message: 'não pode ser antes de data_inicio' });
    else if (daysBetween(b.data_inicio, fim) > MAX_RANGE_DAYS)
      ctx.addIssue({
        code: 'custom',
        path: ['data_fim'],
        message: `no máximo ${MAX_RANGE_DAYS} dias depois de data_inicio`,
      });
    if ((b.hora_inicio === undefined) !== (b.hora_fim === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['hora_fim'],
        message: 'informe hora_inicio e hora_fim juntas (ou nenhuma: o dia todo)',
      });
    else if (b.hora_inicio !== undefined && b.hora_fim! <= b.hora_inicio)
      ctx.addIssue({ code: 'custom', path: ['hora_fim'], message: 'deve ser depois de hora_inicio (no mesmo dia)' });
    if (b.dias_semana && fim >= b.data_inicio && daysBetween(b.data_inicio, fim) < 7) {
      const first = new Date(`${b.data_inicio}T00:00:00Z`).getUTCDay();
      const span = daysBetween(b.data_inicio, fim);
      const hit = b.dias_semana.some((d) => (d - first + 7) % 7 <= span);
      if (!hit)
        ctx.addIssue({ code: 'custom', path: ['dias_semana'], message: 'nenhum desses dias da semana cai no período' });
    }
  }, afterFields)
  .openapi('DisponibilidadeRequest');

export const DisponibilidadeSchema = z
  .object({
    id: out.id(),
    profissional_id: out.id(),
    tipo: z.enum(DISPONIBILIDADE_TIPOS),
    data_inicio: out.date(),
    data_fim: out.date(),
    hora_inicio: out.time().nullable(),
    hora_fim: out.time().nullable(),
    dias_semana: z.array(z.number().int()).nullable(),
    motivo: z.string().nullable(),
    origem: z.enum(DISPONIBILIDADE_ORIGENS),
    campanha_id: out.id().nullable(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Disponibilidade');

export const DisponibilidadesQuery = z.object({
  de: isoDate()
    .optional()
    .openapi({ param: { name: 'de', in: 'query' }, description: 'declarations ending on or after it; default today' }),
  ate: isoDate()
    .optional()
    .openapi({ param: { name: 'ate', in: 'query' }, description: 'declarations starting on or before it' }),
});

export const ProfIdParam = z.object({ id: uuid().openapi({ param: { name: 'id', in: 'path' } }) });
export const ProfDispParams = ProfIdParam.extend({
  disp_id: uuid().openapi({ param: { name: 'disp_id', in: 'path' } }),
});

export const ResumoQuery = z.object({
  data: isoDate()
    .optional()
    .openapi({ param: { name: 'data', in: 'query' }, description: 'default today (São Paulo)' }),
  funcao_id: uuid()
    .optional()
    .openapi({
      param: { name: 'funcao_id', in: 'query' },
      description: 'one function; default every function of the region',
    }),
});

export const ResumoSchema = z
  .object({
    funcao_id: out.id(),
    funcao_nome: z.string(),
    titulares: z.number().int().openapi({ description: 'active holders of the function in the region' }),
    indisponiveis: z.number().int().openapi({ description: 'holders unavailable at some hour of the day' }),
    preferenciais: z
      .number()
      .int()
      .openapi({ description: 'holders who prefer to work that day (and are not unavailable)' }),
    sem_declaracao: z.number().int().openapi({ description: 'holders who declared nothing for the day' }),
  })
  .openapi('DisponibilidadeResumo');
