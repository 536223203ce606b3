import type { Bindings } from '../env';
import { errorText, logger } from '../lib/logger';
import { requeuePendingEmails } from '../services/core/mail';
import { requeuePendingWhatsapp } from '../services/core/whatsapp';
import { fecharChamados } from '../services/tickets/chamados';
import { enviarPesquisas } from '../services/surveys/pesquisas';
import { sealActivityLog } from './seal-activity-log';
import { expirarPedidos, requeuePayments } from './pedidos';
import { lembretes } from './lembretes';
import { lembrarCampanhasJob } from './campanhas';
import { lembrarCredenciamentoJob } from './credenciamento';
import { faltasProvaveisJob } from './faltas';
import { confiabilidadeNoturna } from './confiabilidade';
import { capacidadeDeficitJob } from './capacidade';

/**
 * The one dispatcher of scheduled work (docs/architecture.md, "A scheduled job"): the Cron Trigger
 * `*\/15 * * * *` (wrangler.toml) calls `scheduled()` in src/index.ts, which runs every job below
 * with the trigger's time. Each job is idempotent (overlapping or repeated runs change nothing
 * twice), takes `(env, now)` so tests choose the clock, and reaches outside services only through
 * a queue. A failing job does not stop the others; the run fails afterwards, so the Cron log shows it.
 */
export type Job = (env: Bindings, now: Date) => Promise<unknown>;

export const jobs: Record<string, Job> = {
  'seal-activity-log': sealActivityLog,
  // E-mails whose enqueue failed, or whose consumer died while sending, go to the queue again.
  'requeue-pending-emails': requeuePendingEmails,
  // WhatsApp messages (D30) likewise.
  'requeue-pending-whatsapp': requeuePendingWhatsapp,
  // Orders (D19): unpaid ones expire; checkouts and notifications whose queue message was lost go again.
  'expirar-pedidos': expirarPedidos,
  'requeue-payments': requeuePayments,
  // Reminders before events (docs/decisions.md#d16): each (invitation, kind) once.
  lembretes,
  // Tickets resolvido for 7 days are closed (docs/decisions.md#d22).
  'fechar-chamados': fecharChamados,
  // Client surveys the day after each event of their type (docs/decisions.md#d21).
  'enviar-pesquisas': enviarPesquisas,
  // The season poll's reminder to the silent, two days before its deadline, once (docs/decisions.md#d24).
  'lembrar-campanhas': lembrarCampanhasJob,
  // The credential list's reminder, 2 business days before its deadline, once (docs/decisions.md#d25).
  'lembrar-credenciamento': lembrarCredenciamentoJob,
  // Probable no-shows: no entrada once an event's entries closed, flagged once per invitation (docs/decisions.md#d27).
  'faltas-provaveis': faltasProvaveisJob,
  // The reliability scores' nightly refresh (decay, the region's mean), once per São Paulo day (docs/decisions.md#d28).
  'confiabilidade-noturna': confiabilidadeNoturna,
  // The season planner's (date, function) pairs in deficit, to the administrators once a week (docs/decisions.md#d26).
  'capacidade-deficit': capacidadeDeficitJob,
};

export async function runScheduled(env: Bindings, now: Date, only: Record<string, Job> = jobs) {
  const results: Record<string, unknown> = {};
  const failed: string[] = [];
  for (const [name, job] of Object.entries(only)) {
    try {
      results[name] = await job(env, now);
    } catch (err) {
      failed.push(name);
      logger.error(errorText(err), { job: name });
    }
  }
  if (failed.length) throw new Error(`scheduled jobs failed: ${failed.join(', ')}`);
  return results;
}
