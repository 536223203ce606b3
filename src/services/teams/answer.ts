import { and, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { agenda, convites, notifications, profissionais } from '../../db/schema';
import type { Author, GuardShape } from '../../db/authored';
import {
  cachedBatch,
  returned,
  rows,
  run,
  runEach,
  type Placeholders,
  type Ready,
  type Results,
  type Statements,
} from '../../db/cached-batch';
import { ApiError } from '../../lib/errors';
import { isAdmin } from '../../lib/permissions';
import { feeOnCancel } from '../money/financeiro';
import { cancellationStatements } from '../reliability/ledger';
import { notifiedPush, notifyFromRow, type Push } from '../core/notifications';
import type { WriteCtx } from '../core/context';
import { logRowWrite, WRITE_PARAMS, writerOf, writeValues } from '../core/activity-log';
import { acceptStatements, refusal, refusalReason, releaseStatements } from './acceptance';
import { travelRuleOf, type TravelRule } from './time-window';
import {
  conviteNotFound,
  conviteRegiao,
  ownConvites,
  selectConvites,
  toConviteResponse,
  type ConviteBody,
  type ConviteView,
} from './convite-read';

type Answer = 'aceito' | 'recusado';

/** What the caller asks: the status and, for an administrator's approval, `forcar` (docs/decisions.md#d11). */
export interface AnswerInput {
  status: Answer;
  forcar?: boolean;
}

/** One answer: the invitation, the status asked, this request's instant and the travel rule's values. */
interface AnswerOf {
  id: string;
  status: Answer;
  now: string;
  config: Pick<WriteCtx['config'], 'DESLOCAMENTO_MESMA_CIDADE_MIN' | 'MARGEM_DESLOCAMENTO_MIN'>;
}

/**
 * How one caller's `PATCH /api/convites/{id}` is written and answered: its statements, by name (the
 * guarded `update`, its log entry, fee, notifications, promotion, the `view` read back last) and,
 * from their results, the answer or the refusal.
 */
interface AnswerPlan {
  statements: Statements;
  settle(results: Results<Statements>, db: Db, push: Push): Promise<ConviteBody>;
}
/** Every answer's batch: a guarded `update`, whose changes prove the author (db/authored.ts), and the invitation read back as `view`. */
type AnswerStatements = Statements & { update: Ready<{ changes: number }>; view: Ready<ConviteView[]> };
const answerPlan = <B extends AnswerStatements>(
  statements: B,
  settle: (results: Results<B>, db: Db, push: Push) => Promise<ConviteBody>,
): AnswerPlan => ({ statements, settle: settle as AnswerPlan['settle'] });

/**
 * The invitation `id` with its event (and `more` joins), answered `status` by THIS request (its own
 * row carries the marker): the row its notifications are written from (notifyFromRow).
 */
const answeredRow = (a: { id: string | Placeholder; status: Answer; now: string | SQL }, more: SQL = sql``) => ({
  from: sql`from ${convites} join ${agenda} on ${agenda.id} = ${convites.agendaId} ${more}`,
  where: and(eq(convites.id, a.id), eq(convites.status, a.status), eq(convites.respondidoEm, a.now))!,
});

const dadosOf = (status: Answer) =>
  sql`json_object('convite_id', ${convites.id}, 'agenda_id', ${convites.agendaId}, 'status', ${status})`;

/**
 * `PATCH /api/convites/{id}` in ONE round trip (a folded write, db/authored.ts): the caller's check,
 * the guarded update, its log entry, fee, notifications (written by SQL from the invitation) and
 * the read-back are one batch; nothing is read before it. A professional answers its own invitation
 * (professionalPlan, a cached batch), an administrator decides an application of the region
 * (decidePlan), by the role the batch is built for. A refusal is explained from the invitation as
 * the same batch read it; only a refusal by the acceptance rule (quota, time window) costs a second
 * round trip (refusalReason).
 */
export async function respond(
  ctx: Pick<WriteCtx, 'db' | 'write' | 'regiao' | 'push' | 'config'>,
  id: string,
  input: AnswerInput,
) {
  const { db, write, regiao, push, config } = ctx;
  const { status, forcar = false } = input;
  const answer = { id, status, now: new Date().toISOString(), config };
  // The plan of the batch that answered (a token whose role changed is built again for the stored user).
  let plan!: AnswerPlan;
  const results = await write(
    (author) => {
      if (isAdmin(author.scope.role)) plan = decidePlan(db, author, { ...answer, regiao, forcar });
      else if (forcar) throw new ApiError('FORBIDDEN', 'forcar: só um administrador pode forçar uma aceitação');
      else plan = professionalPlan(db, author, answer);
      return plan.statements;
    },
    (results) => (results as Results<AnswerStatements>).update.changes > 0,
  );
  return plan.settle(results, db, push);
}

/** The invitation the batch read back (none: not the caller's, 404). */
function viewOf(results: { view: ConviteView[] }) {
  const [view] = results.view;
  if (!view) throw conviteNotFound();
  return view;
}

/**
 * The professional's answers, each a batch built once per author check (db/cached-batch.ts): the
 * hot write of a professional's day, whose statements drizzle would otherwise build on every
 * request. Every value of the request is a placeholder: the author check's and the log entries'
 * (WRITE_PARAMS), the invitation, the time, the caller (`usuario`) and the answer's new ids.
 */
const ANSWER_PARAMS = [...WRITE_PARAMS, 'id', 'now', 'usuario', 'fee_id', 'mesma_cidade', 'margem'] as const;
type AnswerShape = { author: GuardShape };

/**
 * What every answer of the professional writes and reads besides its update: the invitation as its
 * own (`mine`, under the author check), the notification of the inviter and the event's creator
 * (once each, never the professional itself), and the read-back (the professional the view joins
 * is the caller's).
 */
function answerParts(
  db: Db,
  { s, p, status }: { s: AnswerShape; p: Placeholders<(typeof ANSWER_PARAMS)[number]>; status: Answer },
) {
  const { guard, log } = writerOf(db, s.author, p);
  const now = sql`${p.now}`;
  const verb = status === 'aceito' ? 'aceitou' : 'recusou';
  const notes = notifyFromRow(
    db,
    {
      to: [convites.convidadoPor, agenda.userId],
      tipo: 'convite_respondido',
      titulo: status === 'aceito' ? 'Convite aceito' : 'Convite recusado',
      mensagem: sql`${`Um profissional ${verb} o convite para o evento de `} || ${agenda.dataEvento} || '.'`,
      dados: dadosOf(status),
    },
    { ...answeredRow({ id: p.id, status, now }), except: p.usuario, now },
  );
  return {
    log,
    now,
    rule: { mesmaCidade: sql`${p.mesma_cidade}`, margem: sql`${p.margem}` } satisfies TravelRule,
    mine: and(eq(convites.id, p.id), ownConvites(p.usuario), guard)!,
    notes: returned(notifications, notes.insert),
    view: rows(selectConvites(db).where(and(eq(convites.id, p.id), eq(profissionais.usuarioId, p.usuario)))),
  };
}

/**
 * The professional's acceptance: the guarded update with its log entry and fee (acceptStatements),
 * the notification, the read-back last. A declined application stays declined: only an invitation
 * can be accepted again.
 */
export const acceptBatch = cachedBatch({
  params: ANSWER_PARAMS,
  build: (db, s: AnswerShape, p) => {
    const a = answerParts(db, { s, p, status: 'aceito' });
    const accept = acceptStatements(db, a.log, {
      where: and(a.mine, sql`(${convites.status} = 'pendente' or ${convites.origem} = 'convite')`)!,
      from: ['pendente', 'recusado'],
      now: a.now,
      acao: 'convites.accept',
      conviteId: p.id,
      feeId: p.fee_id,
      rule: a.rule,
    });
    return { ...runEach(accept.writes), notes: a.notes, view: a.view };
  },
});

/**
 * The professional declines (or withdraws an application): its log entry, its fee cancelled if it
 * was accepted, the guarded update, the notification, the waiting list's promotion
 * (releaseStatements, its fee and notification), the read-back last.
 */
export const declineBatch = cachedBatch({
  params: [...ANSWER_PARAMS, 'promocao_id'],
  build: (db, s: AnswerShape, p) => {
    const status = 'recusado';
    const a = answerParts(db, { s, p, status });
    const where = and(a.mine, inArray(convites.status, ['pendente', 'aceito', 'solicitado', 'espera']))!;
    // Its fee, if accepted and still previsto, is cancelled before the decline (docs/decisions.md#d18-finance).
    const cancelled = feeOnCancel({ db, log: a.log }, p.id, {
      when: sql`exists (select 1 from ${convites} where ${where} and ${convites.status} = 'aceito')`,
      now: a.now,
    });
    // The place it frees: the invitation's event and function, read by SQL from its row only if THIS
    // decline happened (its marker), else null and nobody is promoted.
    const released = (col: string) =>
      sql`(select x.${sql.raw(col)} from ${convites} x where x.id = ${p.id} and x.status = ${status} and x.respondido_em = ${a.now})`;
    const release = releaseStatements(db, a.log, {
      agendaId: released('agenda_id'),
      funcaoId: released('funcao_id'),
      now: a.now,
      promocaoId: p.promocao_id,
      feeId: p.fee_id,
      rule: a.rule,
    });
    return {
      log: run(
        logRowWrite(
          { db, log: a.log },
          { table: convites, where },
          {
            acao: 'convites.decline',
            entidade: 'convites',
            regiao: conviteRegiao,
            dados: { status: { antes: convites.status, depois: status } },
          },
        ),
      ),
      ...runEach(cancelled, 'cancelled'),
      // An accepted invitation cancelled enters the reliability ledger by how early, with the score
      // refreshed (docs/decisions.md#d28; the neutral cases write nothing), before the update moves it
      // out of `aceito`.
      ...runEach(cancellationStatements(db, { where, now: a.now, conviteId: p.id }), 'confiabilidade'),
      // Declining withdraws a presence confirmed before (D16): a later acceptance must confirm again.
      update: run(
        db.update(convites).set({ status, respondidoEm: a.now, updatedAt: a.now, confirmadoEm: null }).where(where),
      ),
      notes: a.notes,
      ...runEach(release.writes, 'promoted'),
      promotedNotes: returned(notifications, release.notified),
      view: a.view,
    };
  },
});

/**
 * The invited professional accepts or refuses; the inviter and the event's creator are told. It may
 * accept a `pendente` invitation, or again one it declined itself (`recusado` of origin `convite`);
 * it may decline a `pendente`, `aceito`, `solicitado` or `espera` one (withdrawing an application).
 * Answering the status it already has changes nothing (the invitation is answered as it is). A
 * decline frees its place: the waiting list is promoted in the same batch (releaseStatements).
 */
function professionalPlan(db: Db, author: Author, { id, status, now, config }: AnswerOf): AnswerPlan {
  const shape = { author: author.cached.shape };
  const values = {
    id,
    now,
    usuario: author.scope.id,
    fee_id: crypto.randomUUID(),
    mesma_cidade: config.DESLOCAMENTO_MESMA_CIDADE_MIN,
    margem: config.MARGEM_DESLOCAMENTO_MIN,
  };
  if (status === 'aceito')
    return answerPlan(acceptBatch.bind(db, shape, writeValues(author, values)), async (results, db, push) => {
      const view = viewOf(results);
      if (results.update.changes > 0) {
        push(notifiedPush(results.notes));
        return toConviteResponse(view);
      }
      const { status: state, origem } = view.c;
      if (state === 'aceito') return toConviteResponse(view);
      if (state === 'solicitado' || state === 'espera')
        throw new ApiError(
          'INVALID_STATE',
          'esta candidatura aguarda o administrador ou uma vaga: não pode ser aceita',
        );
      if (state === 'recusado' && origem === 'candidatura')
        throw new ApiError('INVALID_STATE', 'uma candidatura recusada não pode ser aceita: candidate-se a outra vaga');
      throw (
        refusal(await refusalReason(db, id, travelRuleOf(config))) ??
        new ApiError('CONFLICT', 'o convite mudou enquanto isso: leia-o de novo')
      );
    });

  const statements = declineBatch.bind(db, shape, writeValues(author, { ...values, promocao_id: crypto.randomUUID() }));
  return answerPlan(statements, async (results, _db, push) => {
    const view = viewOf(results);
    if (results.update.changes > 0) {
      push([...notifiedPush(results.notes), ...notifiedPush(results.promotedNotes)]);
      return toConviteResponse(view);
    }
    if (view.c.status === status) return toConviteResponse(view);
    throw new ApiError('CONFLICT', 'o convite mudou enquanto isso: leia-o de novo');
  });
}

/**
 * An administrator of the event's region decides an application waiting for approval
 * (`solicitado`): `aceito` through the same guarded rule as every acceptance, or `recusado`.
 * Any other state is 409 INVALID_STATE. The professional is told. `forcar` approves over a travel
 * conflict or a declared unavailability (never an overlap or a full quota); the entry says so and
 * what it passed.
 */
function decidePlan(db: Db, author: Author, answer: AnswerOf & { regiao: string; forcar: boolean }): AnswerPlan {
  const { id, status, now, regiao, forcar } = answer;
  const rule = travelRuleOf(answer.config);
  const inRegion = and(eq(convites.id, id), sql`${conviteRegiao} = ${regiao}`, author.guard)!;
  const aprovada = status === 'aceito';
  const notes = notifyFromRow(
    db,
    {
      to: [profissionais.usuarioId],
      tipo: aprovada ? 'candidatura_aprovada' : 'candidatura_recusada',
      titulo: aprovada ? 'Candidatura aprovada' : 'Candidatura recusada',
      mensagem: sql`'Sua candidatura para o evento de ' || ${agenda.dataEvento} || ${` foi ${aprovada ? 'aprovada' : 'recusada'}.`}`,
      dados: dadosOf(status),
    },
    answeredRow(answer, sql`join ${profissionais} on ${profissionais.id} = ${convites.profissionalId}`),
  );
  const pending = and(inRegion, eq(convites.status, 'solicitado'));
  const writes = aprovada
    ? runEach(
        acceptStatements(db, author.log, {
          where: inRegion,
          from: ['solicitado'],
          now,
          acao: 'convites.approve',
          conviteId: id,
          rule,
          forcar,
        }).writes,
      )
    : {
        log: run(
          logRowWrite(
            { db, log: author.log },
            { table: convites, where: pending },
            {
              acao: 'convites.reject',
              entidade: 'convites',
              regiao,
              dados: { status: { antes: convites.status, depois: 'recusado' } },
            },
          ),
        ),
        update: run(db.update(convites).set({ status: 'recusado', respondidoEm: now, updatedAt: now }).where(pending)),
      };
  const statements = {
    ...writes,
    notes: returned(notifications, notes.insert),
    view: rows(selectConvites(db).where(and(eq(convites.id, id), eq(agenda.regiao, regiao)))),
  };
  return answerPlan(statements, async (results, db, push) => {
    const view = viewOf(results);
    if (results.update.changes > 0) {
      push(notes.push(results.notes));
      return toConviteResponse(view);
    }
    if (view.c.status !== 'solicitado')
      throw new ApiError(
        'INVALID_STATE',
        `só uma candidatura em "solicitado" é decidida pelo administrador (está "${view.c.status}")`,
      );
    throw (
      (aprovada ? refusal(await refusalReason(db, id, rule), forcar) : undefined) ??
      new ApiError('INVALID_STATE', 'a candidatura mudou enquanto isso: leia-a de novo')
    );
  });
}
