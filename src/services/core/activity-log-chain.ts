import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import {
  emailOutbox,
  logsAtividade,
  logsAtividadeCabecas,
  logsAtividadeSelos,
  users,
  type LogAtividadeRow,
} from '../../db/schema';
import { writeThenRead } from '../../db/write-read';
import type { Config, LogChainKeys } from '../../env';
import { saoPauloDate } from '../../lib/dates';
import { hmacSha256Hex, sameText, sha256Hex } from '../../lib/tokens';
import type { Ctx } from './context';
import { prepareEmail } from './mail';

/**
 * The activity log's hash chain (docs/decisions.md#d15): the canonical form of an entry, the seals
 * written by the sealing job, the verification, and the head's daily publication.
 */

/** An entry's `dados`, parsed (the canonical form and the list answer them as JSON). */
export const parseDados = (s: string): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * An entry's own fields in wire names and in the canonical order (seq first): the response shows
 * them, and the hash is computed over exactly them (canonicalEntry).
 */
export const entryFields = (r: LogAtividadeRow) => ({
  seq: r.seq,
  id: r.id,
  created_at: r.createdAt,
  ator_id: r.atorId,
  ator_role: r.atorRole,
  acao: r.acao,
  entidade: r.entidade,
  entidade_id: r.entidadeId,
  regiao: r.regiao,
  request_id: r.requestId,
});

/** hash_anterior of the first entry. */
export const GENESIS = '0'.repeat(64);

/** The seal version of the first rule, without a key: entries sealed before LOG_CHAIN_SECRET existed. */
export const UNKEYED = 0;

/** JSON with object keys sorted at every level (arrays keep their order). */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * The canonical JSON of an entry: an object with exactly these keys in this order, `dados` parsed
 * from its stored text and re-serialised with sorted keys, no whitespace:
 * {"seq","id","created_at","ator_id","ator_role","acao","entidade","entidade_id","regiao","request_id","dados"}.
 */
export function canonicalEntry(r: LogAtividadeRow): string {
  const head = JSON.stringify(entryFields(r));
  return `${head.slice(0, -1)},"dados":${sortedJson(parseDados(r.dados))}}`;
}

/** Version 0, the first rule (no key): lowercase hex SHA-256 of hash_anterior followed by the canonical JSON. */
export const entryHash = (hashAnterior: string, r: LogAtividadeRow) => sha256Hex(hashAnterior + canonicalEntry(r));

/**
 * The seal of version `versao`: 0 the first rule (entryHash); n >= 1 lowercase hex HMAC-SHA256 of
 * the same text (hash_anterior + canonical JSON) under key n of LOG_CHAIN_SECRET. Undefined when
 * the Worker has no key n.
 */
export function sealHash(
  keys: LogChainKeys | undefined,
  { versao, hashAnterior, entry: r }: { versao: number; hashAnterior: string; entry: LogAtividadeRow },
): Promise<string> | undefined {
  if (versao === UNKEYED) return entryHash(hashAnterior, r);
  const key = keys?.keys.get(versao);
  return key === undefined ? undefined : hmacSha256Hex(key, hashAnterior + canonicalEntry(r));
}

/** Entries read per round trip when sealing or verifying. */
const CHAIN_PAGE = 500;
/** A seal row binds 5 parameters, the guard 1: 19 rows stay under D1's 100 per statement. */
const SEALS_PER_STATEMENT = 19;

const lastSealedSeq = sql`(select coalesce(max(${logsAtividadeSelos.seq}), 0) from ${logsAtividadeSelos})`;

/** The chain's last seal: what a sealing run publishes and what an auditor compares later. */
export interface ChainHead {
  seq: number;
  hash: string;
  versao: number;
}

const headSelect = (db: Db) =>
  db
    .select({ seq: logsAtividadeSelos.seq, hash: logsAtividadeSelos.hash, versao: logsAtividadeSelos.versao })
    .from(logsAtividadeSelos)
    .orderBy(desc(logsAtividadeSelos.seq))
    .limit(1);

/**
 * Seals the entries not yet sealed, in seq order, at most `max` per run, with the current key of
 * LOG_CHAIN_SECRET (never without one: entries wait unsealed until it is set). Idempotent under
 * overlap: each insert carries a guard "the last seal is the entry right before my first one", so
 * a run that lost the race inserts nothing (and the primary key on seq would refuse a second seal
 * anyway). The seals are a pure function of the entries and the key, so two runs compute the same
 * chain. Seals already written are never rewritten. Answers how many entries this run sealed.
 */
export async function sealPending(
  { db, keys }: { db: Db; keys: LogChainKeys },
  now: Date,
  max = 5000,
): Promise<number> {
  const versao = keys.current;
  const key = keys.keys.get(versao)!;
  let sealed = 0;
  while (sealed < max) {
    const [last, entries] = await db.batch([
      headSelect(db),
      db
        .select()
        .from(logsAtividade)
        .where(sql`${logsAtividade.seq} > ${lastSealedSeq}`)
        .orderBy(asc(logsAtividade.seq))
        .limit(Math.min(CHAIN_PAGE, max - sealed)),
    ]);
    // Versions only grow along the chain (verifyChain refuses a step back): an older current key is a
    // configuration mistake (a rotation undone), never a reason to seal.
    if (last[0] && last[0].versao > versao)
      throw new Error(
        `LOG_CHAIN_SECRET: its current key is version ${versao}, the chain is sealed up to version ${last[0].versao}: list the newest key first`,
      );
    if (entries.length === 0) break;
    let prevSeq = last[0]?.seq ?? 0;
    let prev = last[0]?.hash ?? GENESIS;
    const rows: { seq: number; hashAnterior: string; hash: string }[] = [];
    for (const e of entries) {
      const hash = await hmacSha256Hex(key, prev + canonicalEntry(e));
      rows.push({ seq: e.seq, hashAnterior: prev, hash });
      prev = hash;
    }
    const at = now.toISOString();
    const inserts: BatchItem<'sqlite'>[] = [];
    for (let i = 0; i < rows.length; i += SEALS_PER_STATEMENT) {
      const chunk = rows.slice(i, i + SEALS_PER_STATEMENT);
      const values = chunk.map((r) => sql`(${r.seq}, ${r.hashAnterior}, ${r.hash}, ${at}, ${versao})`);
      inserts.push(
        db
          .insert(logsAtividadeSelos)
          .select(sql`select * from (values ${sql.join(values, sql`, `)}) where ${lastSealedSeq} = ${prevSeq}`),
      );
      prevSeq = chunk[chunk.length - 1]!.seq;
    }
    const results = await db.batch(inserts as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    const done = results.reduce((n, r) => n + ((r as D1Result).meta?.changes ?? 0), 0);
    sealed += done;
    // Another run sealed (some of) these meanwhile: it carries on; this run stops.
    if (done < rows.length) break;
  }
  return sealed;
}

/**
 * Why the chain does not hold: `lacuna` a seq missing from 1 up to the last seal (an entry and its
 * seal removed); `entrada_ausente` a seal whose entry is gone; `selo_invalido` the entry changed, or
 * its seal does not follow the previous one; `versao_invalida` a seal of an older rule after a newer
 * one; `chave_desconhecida` a key version the Worker does not have; `cabeca_ausente` the expected
 * head is past the last seal (the end was removed); `cabeca_divergente` the seal at the expected
 * head's seq is another one (history up to it was rewritten).
 */
export const MOTIVOS = [
  'lacuna',
  'entrada_ausente',
  'selo_invalido',
  'versao_invalida',
  'chave_desconhecida',
  'cabeca_ausente',
  'cabeca_divergente',
] as const;
export type Motivo = (typeof MOTIVOS)[number];

export type Broken = { ok: false; quebra_em_seq: number; motivo: Motivo; lacuna?: { de: number; ate: number } };
export type Verification =
  | {
      ok: true;
      total: number;
      /** The last seal now; null when nothing is sealed. */
      cabeca: ChainHead | null;
      /** The last seq sealed by the unkeyed first rule (null: none); it never grows once the key exists. */
      sem_chave_ate_seq: number | null;
      /** Present when an expected head was given: the chain still reaches it. */
      cabeca_esperada_alcancada?: true;
    }
  | Broken;

/**
 * Recomputes the chain over every sealed entry in seq order, each seal by the rule of its own
 * version. It breaks at the first seq missing from 1 up to the last seal (`lacuna`, with the
 * missing range), the first seal whose entry is gone, whose version steps back, whose key is
 * unknown, whose hash_anterior is not the previous hash, or whose hash does not match the entry as
 * stored now. With `expected` (a head published by a sealing run: its log line or daily e-mail),
 * the chain must also reach that seq with that very seal. One round trip per 500 entries (the check
 * is linear by nature).
 */
export async function verifyChain(
  db: Db,
  keys: LogChainKeys | undefined,
  expected?: { seq: number; hash: string },
): Promise<Verification> {
  let prev = GENESIS;
  let prevSeq = 0;
  let versao = UNKEYED;
  let semChave: number | null = null;
  let total = 0;
  const broken = (seq: number, motivo: Motivo): Broken => ({ ok: false, quebra_em_seq: seq, motivo });
  for (;;) {
    const rows = await db
      .select({
        sealSeq: sql<number>`${logsAtividadeSelos.seq}`.as('seal_seq'),
        hashAnterior: logsAtividadeSelos.hashAnterior,
        hash: logsAtividadeSelos.hash,
        versao: logsAtividadeSelos.versao,
        entry: logsAtividade,
      })
      .from(logsAtividadeSelos)
      .leftJoin(logsAtividade, eq(logsAtividade.seq, logsAtividadeSelos.seq))
      .where(sql`${logsAtividadeSelos.seq} > ${prevSeq}`)
      .orderBy(asc(logsAtividadeSelos.seq))
      .limit(CHAIN_PAGE);
    for (const r of rows) {
      const seq = r.sealSeq;
      if (seq !== prevSeq + 1) return { ...broken(prevSeq + 1, 'lacuna'), lacuna: { de: prevSeq + 1, ate: seq - 1 } };
      if (!r.entry) return broken(seq, 'entrada_ausente');
      if (r.versao < versao) return broken(seq, 'versao_invalida');
      const hash = sealHash(keys, { versao: r.versao, hashAnterior: prev, entry: r.entry });
      if (!hash) return broken(seq, 'chave_desconhecida');
      if (r.hashAnterior !== prev || !sameText(await hash, r.hash)) return broken(seq, 'selo_invalido');
      if (expected?.seq === seq && !sameText(expected.hash, r.hash)) return broken(seq, 'cabeca_divergente');
      if (r.versao === UNKEYED) semChave = seq;
      versao = r.versao;
      prev = r.hash;
      prevSeq = seq;
      total++;
    }
    if (rows.length < CHAIN_PAGE) break;
  }
  if (expected && expected.seq > prevSeq) return broken(prevSeq + 1, 'cabeca_ausente');
  return {
    ok: true,
    total,
    cabeca: total ? { seq: prevSeq, hash: prev, versao } : null,
    sem_chave_ate_seq: semChave,
    ...(expected ? { cabeca_esperada_alcancada: true as const } : {}),
  };
}

// Publishing the head, somewhere D1 cannot rewrite.

/** The chain's head now (null when nothing is sealed). */
export async function chainHead(db: Db): Promise<ChainHead | null> {
  const [head] = await headSelect(db);
  return head ?? null;
}

/**
 * The head's daily e-mail to every active SUPERADMIN, exactly once per São Paulo day: the day's
 * row in logs_atividade_cabecas is the unique key (overlapping runs: one gets in), and each
 * e-mail is written only with the row of this very run. Answers the outbox ids written (to
 * enqueue), none when the day's head was already published or there is no SUPERADMIN.
 */
export async function publishDailyHead(
  { db, config }: Pick<Ctx, 'db'> & { config: Pick<Config, 'JWT_SECRET'> },
  head: ChainHead,
  now: Date,
): Promise<string[]> {
  const dia = saoPauloDate(now);
  const admins = await db
    .select({ email: users.email, nome: users.nome })
    .from(users)
    .where(
      and(
        eq(users.role, 'SUPERADMIN'),
        eq(users.ativo, true),
        sql`not exists (select 1 from ${logsAtividadeCabecas} where ${logsAtividadeCabecas.dia} = ${dia})`,
      ),
    );
  if (admins.length === 0) return [];
  const id = crypto.randomUUID();
  const at = now.toISOString();
  const mine = sql`exists (select 1 from ${logsAtividadeCabecas} where ${logsAtividadeCabecas.dia} = ${dia} and ${logsAtividadeCabecas.id} = ${id})`;
  const mails = await Promise.all(
    admins.map((a) =>
      prepareEmail(
        { db, config },
        { para: a.email, tipo: 'cabeca_log', dados: { nome: a.nome, dia, ...head }, when: mine },
        now,
      ),
    ),
  );
  const [written] = await writeThenRead(
    db,
    [
      db
        .insert(logsAtividadeCabecas)
        .values({ dia, id, ...head, createdAt: at })
        .onConflictDoNothing(),
      ...mails.map((m) => m.insert),
    ],
    [
      db
        .select({ id: emailOutbox.id })
        .from(emailOutbox)
        .where(
          inArray(
            emailOutbox.id,
            mails.map((m) => m.id),
          ),
        ),
    ],
  );
  return written.map((r) => r.id);
}
