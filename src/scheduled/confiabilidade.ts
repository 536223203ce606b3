import { createDb } from '../db/client';
import type { Bindings } from '../env';
import { refreshNoturno } from '../services/reliability/noturno';

/**
 * The nightly refresh of the reliability scores (docs/decisions.md#d28; services/reliability/noturno.ts):
 * once per São Paulo day, from 03:00, whatever the number or overlap of the dispatcher's ticks.
 */
export const confiabilidadeNoturna = (env: Bindings, now: Date) => refreshNoturno(createDb(env.DB), now);
