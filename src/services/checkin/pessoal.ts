import { and, eq, sql } from 'drizzle-orm';
import {
  agenda,
  convites,
  faltas,
  funcoes,
  presencas,
  profissionais,
  type PresencaRow,
  type PresencaTipo,
} from '../../db/schema';
import { saoPauloDate } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import type { Ctx } from '../core/context';
import { outcomeStatements } from '../reliability/ledger';
import { parseCode, personalCode, personalKey, sealedBy, STEP_MS, stepOf, stepStart } from './codes';
import {
  checkinSecret,
  eventNotFound,
  eventoCheckinOf,
  eventoCheckinSelect,
  isStaff,
  staffSql,
  windowOf,
} from './evento';
import { atrasoMin, windowOpen } from './janela';
import { presenceAllowed, toPresenca, type NovaPresenca } from './presencas';

/**
 * The personal code (docs/decisions.md#d27): the invitee shows it, the coordinator scans it (with a
 * face check against the answered avatar), live or in an offline batch sent up to 12 h later.
 */

/** A personal code is read at most this long after its step. */
export const PERSONAL_MAX_AGE_MS = 12 * 3600 * 1000;
/** A code read more than this after its step was read offline: its step, not the server's now, is the time. */
export const LIVE_MS = 2 * 60 * 1000;
/** At most this many codes per batch. */
export const MAX_LEITURAS = 100;

/** The invitee's own code, from the day before its event until exits close (São Paulo days). */
export async function personalQr(ctx: Ctx, conviteId: string) {
  const { db, user } = ctx;
  const secret = checkinSecret(ctx.config);
  const [rows, evs] = await db.batch([
    db
      .select({ id: convites.id, status: convites.status, agendaId: convites.agendaId })
      .from(convites)
      .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
      .where(and(eq(convites.id, conviteId), eq(profissionais.usuarioId, user.id))),
    eventoCheckinSelect(
      db,
      sql`${agenda.id} = (select ${convites.agendaId} from ${convites} where ${convites.id} = ${conviteId})`,
    ),
  ]);
  const inv = rows[0];
  const ev = evs[0];
  if (!inv || !ev) throw new ApiError('NOT_FOUND', 'convite não encontrado');
  if (inv.status !== 'aceito') throw new ApiError('INVALID_STATE', 'só um convite aceito tem código de check-in');
  const now = new Date();
  const w = windowOf(ev);
  if (saoPauloDate(now) < saoPauloDate(new Date(`${ev.dataEvento}T12:00:00Z`), -1) || now > w.fechaSaida)
    throw new ApiError(
      'CHECKIN_WINDOW_CLOSED',
      'o código pessoal fica disponível da véspera do evento até o fim das saídas',
    );
  const step = stepOf(now.getTime());
  return {
    token: await personalCode(await personalKey(secret), { conviteId: inv.id, step }),
    convite_id: inv.id,
    gerado_em: stepStart(step).toISOString(),
    expira_em: new Date(stepStart(step).getTime() + PERSONAL_MAX_AGE_MS).toISOString(),
    passo_s: STEP_MS / 1000,
  };
}

type Resultado = {
  token: string;
  status: 'registrada' | 'ja_registrada' | 'recusada';
  code: string | null;
  erro: string | null;
  convite_id: string | null;
  nome: string | null;
  funcao: string | null;
  avatar_url: string | null;
  presenca: ReturnType<typeof toPresenca> | null;
};

/**
 * The coordinator's readings of personal codes (staff of the event), up to 100 per call, each
 * answered on its own (`registrada`, `ja_registrada` with the existing record, `recusada` with a code
 * and a sentence) with the invitee's name, function and avatar for the face check. A code read more
 * than 2 minutes after its step is `offline` and dated by its step (the server issued it; the device's
 * clock is never read); older than 12 h, refused. Every new record is one guarded
 * INSERT ... ON CONFLICT DO NOTHING, all in one batch, so a code read twice (in the batch or across
 * batches) records once.
 */
export async function registrarLeituras(ctx: Ctx, agendaId: string, body: { tokens: string[]; tipo?: PresencaTipo }) {
  const { db, user, regiao } = ctx;
  const secret = checkinSecret(ctx.config);
  const tipo = body.tipo ?? 'entrada';
  const key = await personalKey(secret);
  const now = new Date();
  const nowStep = stepOf(now.getTime());
  const parsed = await Promise.all(
    body.tokens.map(async (token) => {
      const code = parseCode(token);
      if (!code || code.tipo !== 'pessoal' || !(await sealedBy(key, code))) return { token, code: undefined };
      return { token, code };
    }),
  );
  const idsJson = JSON.stringify([...new Set(parsed.flatMap((p) => (p.code ? [p.code.conviteId] : [])))]);
  const [evs, invs, existing] = await db.batch([
    eventoCheckinOf(db, regiao, agendaId),
    db
      .select({
        id: convites.id,
        status: convites.status,
        profissionalId: convites.profissionalId,
        nome: profissionais.nome,
        avatarUrl: profissionais.avatarUrl,
        funcao: sql<string>`${funcoes.label}`.as('funcao'),
        falta: sql<
          string | null
        >`(select ${faltas.status} from ${faltas} where ${faltas.conviteId} = ${convites.id})`.as('falta'),
      })
      .from(convites)
      .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
      .innerJoin(funcoes, eq(funcoes.id, convites.funcaoId))
      .where(
        and(
          sql`${convites.id} in (select value from json_each(${idsJson}))`,
          // `+`: the codes' own invitations by primary key, never the event's whole team (its agenda_id index).
          sql`+${convites.agendaId} = ${agendaId}`,
        ),
      ),
    db
      .select()
      .from(presencas)
      .where(sql`${presencas.conviteId} in (select value from json_each(${idsJson}))`),
  ]);
  const ev = evs[0];
  if (!ev || !isStaff(user, ev)) throw eventNotFound();
  const w = windowOf(ev);
  const byId = new Map(invs.map((i) => [i.id, i]));
  const has = (conviteId: string, t: PresencaTipo) => existing.find((p) => p.conviteId === conviteId && p.tipo === t);

  const out: Resultado[] = [];
  const planned = new Map<string, NovaPresenca>();
  for (const { token, code } of parsed) {
    type Who = Pick<Resultado, 'token' | 'convite_id' | 'nome' | 'funcao' | 'avatar_url' | 'presenca'>;
    const base: Who = { token, convite_id: null, nome: null, funcao: null, avatar_url: null, presenca: null };
    const refuse = (c: string, erro: string, who: Who = base) =>
      out.push({ ...who, status: 'recusada', code: c, erro });
    if (!code) {
      refuse('INVALID_TOKEN', 'código pessoal inválido');
      continue;
    }
    const inv = byId.get(code.conviteId);
    if (!inv) {
      refuse('NOT_FOUND', 'o código não é de um convite deste evento');
      continue;
    }
    const who = {
      ...base,
      convite_id: inv.id,
      nome: inv.nome,
      funcao: inv.funcao,
      avatar_url: inv.avatarUrl,
    };
    const age = now.getTime() - stepStart(code.step).getTime();
    if (code.step > nowStep || age > PERSONAL_MAX_AGE_MS) {
      refuse('INVALID_TOKEN', 'código pessoal vencido (mais de 12 h): peça um novo ou registre à mão', who);
      continue;
    }
    if (inv.status !== 'aceito') {
      refuse('INVALID_STATE', 'o convite não está aceito', who);
      continue;
    }
    const done = has(inv.id, tipo);
    if (done) {
      out.push({ ...who, status: 'ja_registrada', code: null, erro: null, presenca: toPresenca(done) });
      continue;
    }
    if (inv.falta === 'confirmada') {
      refuse('INVALID_STATE', 'falta já registrada para este convite', who);
      continue;
    }
    const offline = age > LIVE_MS;
    const momento = offline ? stepStart(code.step) : now;
    if (!windowOpen(w, tipo, momento)) {
      refuse('CHECKIN_WINDOW_CLOSED', 'lido fora da janela de check-in do evento: registre à mão', who);
      continue;
    }
    if (tipo === 'saida' && !has(inv.id, 'entrada')) {
      refuse('INVALID_STATE', 'registre a entrada antes da saída', who);
      continue;
    }
    // A code read twice in one batch: the first reading records, the next ones answer its record.
    if (planned.has(inv.id)) {
      out.push({ ...who, status: 'ja_registrada', code: null, erro: null });
      continue;
    }
    planned.set(inv.id, {
      id: crypto.randomUUID(),
      conviteId: inv.id,
      agendaId,
      profissionalId: inv.profissionalId,
      tipo,
      momento: momento.toISOString(),
      origem: 'qr_pessoal',
      offline,
      latitude: null,
      longitude: null,
      precisaoM: null,
      distanciaM: null,
      dentroRaio: null,
      situacao: 'ok',
      atrasoMin: atrasoMin(w, tipo, momento),
      motivo: null,
      registradoPor: user.id,
    });
    out.push({ ...who, status: 'registrada', code: null, erro: null });
  }

  let rows: PresencaRow[] = [];
  if (planned.size) {
    const list = [...planned.values()];
    const ts = now.toISOString();
    const guard = staffSql(user, regiao, agendaId);
    const json = JSON.stringify(
      list.map((p) => [p.id, p.conviteId, p.profissionalId, p.momento, p.offline ? 1 : 0, p.atrasoMin]),
    );
    const v = (i: number) => sql.raw(`json_extract(j.value, '$[${i}]')`);
    const results = await db.batch([
      // One statement for the whole batch: each row guarded by its invitation (presenceAllowed) and the caller's standing.
      db
        .insert(presencas)
        .select(
          sql`select ${v(0)}, ${v(1)}, ${agendaId}, ${v(2)}, ${tipo}, ${v(3)}, 'qr_pessoal', ${v(4)}, null, null, null, null, null,
            'ok', ${v(5)}, null, ${user.id}, null, null, ${ts}, ${ts}
            from json_each(${json}) j where ${guard} and ${presenceAllowed(v(1))}`,
        )
        .onConflictDoNothing(),
      db
        .select()
        .from(presencas)
        .where(
          and(
            sql`${presencas.conviteId} in (select value from json_each(${JSON.stringify(list.map((p) => p.conviteId))}))`,
            eq(presencas.tipo, tipo),
          ),
        ),
      // Each entry's lateness enters the reliability ledger (docs/decisions.md#d28), only with its own row.
      ...list.flatMap((p) => {
        if (p.tipo !== 'entrada' || p.atrasoMin === null) return [];
        const o = outcomeStatements(db, {
          conviteId: p.conviteId,
          outcome: { tipo: 'chegada', atrasoMin: p.atrasoMin },
          em: p.momento,
          now: ts,
          when: sql`exists (select 1 from ${presencas} where ${presencas.id} = ${p.id})`,
        });
        return [o.ledger, o.score];
      }),
    ] as unknown as Parameters<typeof db.batch>[0]);
    rows = results[1] as PresencaRow[];
  }
  const mineIds = new Set([...planned.values()].map((p) => p.id));
  for (const r of out) {
    if (r.status === 'recusada' || r.presenca || !r.convite_id) continue;
    const row = rows.find((x) => x.conviteId === r.convite_id);
    if (!row) {
      Object.assign(r, { status: 'recusada', code: 'CONFLICT', erro: 'o convite mudou enquanto isso: leia de novo' });
      continue;
    }
    if (r.status === 'registrada' && !mineIds.has(row.id)) r.status = 'ja_registrada';
    r.presenca = toPresenca(row);
  }
  return { resultados: out };
}
