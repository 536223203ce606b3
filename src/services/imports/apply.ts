import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { getTableColumns } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { insertSelect } from '../../db/insert-select';
import {
  emailOutbox,
  importacaoLinhas,
  importacoes,
  lancamentos,
  passwordResetTokens,
  profissionais,
  profissionalFuncoes,
  users,
  type ImportacaoRow,
} from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { newRefreshToken, sha256Hex } from '../../lib/tokens';
import { INVITE_TTL_SECONDS } from '../accounts/password-reset';
import { logEachRow, logStatement, type Change } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { sealSecret } from '../core/mail';
import { COLUMNS, ENTIDADE, supported, TABLES, type ColumnDef, type SupportedTipo, type TargetTable } from './columns';
import { importByIdSelect, jsonChunks, notFound, toImportResponse } from './importacoes';

/**
 * Applying a validated import (docs/decisions.md#d20; docs/guide/imports.md): ONE batch of
 * set-based statements over its staged rows (importacao_linhas), each guarded by the import's claim.
 */

const L = sql.raw('l');
const fromJson = (field: string) => sql.raw(`json_extract(l.dados, '$.${field}')`);
const has = (field: string) => sql.raw(`json_type(l.dados, '$.${field}') is not null`);

/** What every statement of one apply shares. */
interface Apply extends Pick<Ctx, 'db' | 'log' | 'regiao'> {
  /** The import's id. */
  id: string;
  tipo: SupportedTipo;
  table: TargetTable;
  /** The kind's columns (columns.ts) and its activity-log resource. */
  columns: ColumnDef[];
  entidade: string;
  colOf: (key: string) => SQLiteColumn;
  now: string;
  claimId: string;
  /** The claim holds: this apply's, the import `aplicando` (every write's guard). */
  claimed: SQL;
  /** The staged lines of one action, under the claim, as `l`. */
  lines: (acao: 'criar' | 'atualizar') => SQL;
  fromLines: SQL;
  /** Every entry names the import. */
  importRef: Record<string, Change>;
}

/** A login to create with a professional: its staged user id and e-mail. */
interface Invite {
  usuarioId: string;
  email: string;
}

/** The import, if it may be applied (409 otherwise), and for professionals the logins it creates: one round trip. */
async function readImport(ctx: Pick<Ctx, 'db' | 'regiao'>, id: string) {
  const { db } = ctx;
  const [rows, invites] = await db.batch([
    importByIdSelect(ctx, id),
    db
      .select({
        usuarioId: sql<string>`json_extract(${importacaoLinhas.dados}, '$.usuario_id')`,
        email: sql<string>`json_extract(${importacaoLinhas.dados}, '$.email')`,
      })
      .from(importacaoLinhas)
      .where(
        and(
          eq(importacaoLinhas.importacaoId, id),
          eq(importacaoLinhas.acao, 'criar'),
          sql`json_extract(${importacaoLinhas.dados}, '$.usuario_id') is not null`,
        ),
      ),
  ]);
  const imp = rows[0];
  if (!imp) throw notFound();
  if (imp.status === 'com_erros')
    throw new ApiError('IMPORT_HAS_ERRORS', 'a importação tem erros: corrija o arquivo e envie de novo');
  if (imp.status !== 'validado') throw new ApiError('ALREADY_APPLIED', 'esta importação já foi aplicada');
  return { imp, invites };
}

/**
 * The data changed since the validation (a record to update is gone, or a professional to create
 * now matches an existing one): an UPDATE that sets a NOT NULL column to null fails the batch.
 */
function recheck(a: Apply) {
  const { db, id, regiao, table, tipo } = a;
  const conflicts: SQL[] = [
    sql`exists (select 1 from ${importacaoLinhas} l where l.importacao_id = ${id} and l.acao = 'atualizar'
      and not exists (select 1 from ${table} where ${table.id} = l.alvo_id and ${table.regiao} = ${regiao}))`,
  ];
  if (tipo === 'profissionais') {
    // Two probes per staged line, each on an index (cpf_cnpj_titular, email): never a join of the two tables.
    const holder = (col: SQLiteColumn, field: string) =>
      sql`exists (select 1 from ${profissionais} where ${col} = ${fromJson(field)} and ${profissionais.regiao} = ${regiao})`;
    conflicts.push(sql`exists (select 1 from ${importacaoLinhas} l where l.importacao_id = ${id} and l.acao = 'criar'
      and (${holder(profissionais.cpfCnpjTitular, 'cpf_cnpj_titular')} or ${holder(profissionais.email, 'email')}))`);
  }
  if (tipo === 'lancamentos')
    conflicts.push(sql`exists (select 1 from ${importacaoLinhas} l join ${lancamentos} on ${lancamentos.id} = l.alvo_id
      where l.importacao_id = ${id} and l.acao = 'atualizar' and ${lancamentos.status} <> 'previsto')`);
  return db
    .update(importacoes)
    .set({ status: sql`null` })
    .where(and(eq(importacoes.id, id), eq(importacoes.aplicacaoId, a.claimId), or(...conflicts)));
}

/** One entry per target row of the staged lines of one action: `<resource>.<verb>`, naming the import. */
const lineEntries = (a: Apply, verb: 'create' | 'update', e: { dados: Record<string, Change>; from: SQL; when: SQL }) =>
  logEachRow(a.db, a.log, {
    acao: `${a.entidade}.${verb}`,
    entidade: a.entidade,
    entidadeId: sql`l.alvo_id`,
    regiao: a.regiao,
    dados: { ...a.importRef, ...e.dados },
    from: e.from,
    when: e.when,
  });

/** Updates: their entries first (they read `antes` from the row), then one UPDATE ... FROM. */
function updateWrites(a: Apply): BatchItem<'sqlite'>[] {
  const { db, id, regiao, table, colOf, columns } = a;
  const newValue = (key: string) => {
    const name = colOf(key).name;
    return sql`case when ${has(name)} then ${fromJson(name)} else ${colOf(key)} end`;
  };
  const dados: Record<string, Change> = {};
  for (const col of columns) dados[colOf(col.key).name] = { antes: colOf(col.key), depois: newValue(col.key) };
  const set: Record<string, SQL | string> = { updatedAt: a.now };
  for (const col of columns) set[col.key] = newValue(col.key);
  return [
    lineEntries(a, 'update', {
      dados,
      from: sql`${a.fromLines} join ${table} on ${table.id} = l.alvo_id`,
      when: a.lines('atualizar'),
    }),
    db
      .update(table)
      .set(set)
      .from(
        sql`(select alvo_id, dados from ${importacaoLinhas} where importacao_id = ${id} and acao = 'atualizar') as l`,
      )
      .where(sql`${table.id} = l.alvo_id and ${table.regiao} = ${regiao} and ${a.claimed}`),
  ];
}

/** The logins of the professionals created with an e-mail (the profile references its login), with their entries. */
async function loginWrites(a: Apply): Promise<BatchItem<'sqlite'>[]> {
  const { db, fromLines } = a;
  // One unusable password hash for the logins of this apply: a PBKDF2 hash costs ~25 ms, 5,000 of
  // them would pass the Workers CPU limit; its random password is discarded, so nobody can log in
  // until they set their own through the invitation (as a single team registration).
  const senhaHash = await hashPassword(newRefreshToken());
  const withLogin = sql`${a.lines('criar')} and ${has('usuario_id')}`;
  return [
    logEachRow(db, a.log, {
      acao: 'users.create',
      entidade: 'users',
      entidadeId: fromJson('usuario_id'),
      dados: {
        ...a.importRef,
        nome: { depois: fromJson('nome') },
        email: { depois: fromJson('email') },
        role: { depois: 'profissional' },
        ativo: { depois: true },
      },
      from: fromLines,
      when: withLogin,
    }),
    insertSelect(
      db,
      users,
      {
        id: fromJson('usuario_id'),
        nome: fromJson('nome'),
        email: fromJson('email'),
        senhaHash: sql`${senhaHash}`,
        telefone: fromJson('whatsapp'),
        role: sql`'profissional'`,
        ativo: sql`1`,
        createdAt: sql`${a.now}`,
        updatedAt: sql`${a.now}`,
      },
      sql`${fromLines} where ${withLogin}`,
    ),
  ];
}

/**
 * The invitations of the new logins: a token (hash only) and its outbox e-mail each, set-based
 * over JSON chunks, under the claim. Answers the statements and the outbox ids to enqueue.
 */
async function inviteWrites(a: Apply, ctx: Pick<Ctx, 'config'>, invites: Invite[]) {
  const { db, now } = a;
  const expiresAt = new Date(Date.parse(now) + INVITE_TTL_SECONDS * 1000).toISOString();
  const tokens = await Promise.all(
    invites.map(async (inv) => {
      const token = newRefreshToken();
      return {
        t: crypto.randomUUID(),
        u: inv.usuarioId,
        h: await sha256Hex(token),
        o: crypto.randomUUID(),
        s: await sealSecret(ctx.config.JWT_SECRET, token),
      };
    }),
  );
  const j = (f: string) => sql.raw(`json_extract(j.value, '$.${f}')`);
  const writes: BatchItem<'sqlite'>[] = [];
  for (const chunk of jsonChunks(tokens)) {
    const from = sql`from json_each(${chunk}) j where ${a.claimed}`;
    writes.push(
      insertSelect(
        db,
        passwordResetTokens,
        {
          id: j('t'),
          userId: j('u'),
          tipo: sql`'convite'`,
          tokenHash: j('h'),
          expiresAt: sql`${expiresAt}`,
          createdAt: sql`${now}`,
        },
        from,
      ),
      insertSelect(
        db,
        emailOutbox,
        {
          id: j('o'),
          para: sql`(select ${users.email} from ${users} where ${users.id} = ${j('u')})`,
          tipo: sql`'convite_acesso'`,
          dados: sql`json_object('nome', (select ${users.nome} from ${users} where ${users.id} = ${j('u')}))`,
          segredo: j('s'),
          status: sql`'pendente'`,
          tentativas: sql`0`,
          disponivelEm: sql`${now}`,
          createdAt: sql`${now}`,
          updatedAt: sql`${now}`,
        },
        from,
      ),
    );
  }
  return { writes, outboxIds: tokens.map((tk) => tk.o) };
}

/** Creates: their entries, then one INSERT ... SELECT (and a professional's main function). */
function createWrites(a: Apply, userId: string): BatchItem<'sqlite'>[] {
  const { db, id, regiao, tipo, colOf, columns, fromLines, claimed } = a;
  const dados: Record<string, Change> = {};
  for (const col of columns) dados[colOf(col.key).name] = { depois: fromJson(colOf(col.key).name) };
  const exprs: Record<string, SQL> = {
    id: sql`l.alvo_id`,
    regiao: sql`${regiao}`,
    createdAt: sql`${a.now}`,
    updatedAt: sql`${a.now}`,
  };
  for (const col of columns) exprs[col.key] = fromJson(colOf(col.key).name);
  if (tipo === 'profissionais') {
    exprs.usuarioId = fromJson('usuario_id');
    exprs.aprovado = sql`1`;
  }
  if (tipo === 'agenda') exprs.userId = sql`${userId}`;
  if (tipo === 'lancamentos') exprs.origem = sql`'importacao'`;
  const writes: BatchItem<'sqlite'>[] = [
    lineEntries(a, 'create', { dados, from: fromLines, when: a.lines('criar') }),
    insertSelect(db, a.table, exprs, sql`${fromLines} where ${a.lines('criar')}`),
  ];
  if (tipo === 'profissionais')
    // Every profile holds its main function (as the single-record routes keep it). listado is its
    // SQL default, 0: the table's triggers set it from the profile (drizzle/0030).
    writes.push(
      db
        .insert(profissionalFuncoes)
        .select(
          sql`select l.alvo_id, ${fromJson('funcao_profissional_id')}, 0 ${fromLines} where l.importacao_id = ${id} and ${has('funcao_profissional_id')} and ${fromJson('funcao_profissional_id')} is not null and ${claimed}`,
        )
        .onConflictDoNothing(),
    );
  return writes;
}

/** The claim (`validado` → `aplicando`, guarded), first in the batch; `aplicado`, last, under the claim. */
function claimAndDone(a: Apply) {
  const { db, id, now, claimId } = a;
  return {
    claim: db
      .update(importacoes)
      .set({ status: 'aplicando', aplicacaoId: claimId, updatedAt: now })
      .where(and(eq(importacoes.id, id), eq(importacoes.regiao, a.regiao), eq(importacoes.status, 'validado'))),
    done: db
      .update(importacoes)
      .set({ status: 'aplicado', aplicadoEm: now, updatedAt: now })
      .where(and(eq(importacoes.id, id), eq(importacoes.aplicacaoId, claimId), eq(importacoes.status, 'aplicando'))),
  };
}

/** What every statement of the apply of import `imp` shares, at `now`. */
function applyOf(ctx: Pick<Ctx, 'db' | 'log' | 'regiao'>, imp: ImportacaoRow, now: Date): Apply {
  const { id } = imp;
  const tipo = supported(imp.tipo);
  const table = TABLES[tipo] as TargetTable;
  const tableCols = getTableColumns(table) as Record<string, SQLiteColumn>;
  const claimId = crypto.randomUUID();
  const claimed = sql`exists (select 1 from ${importacoes} where ${importacoes.id} = ${id} and ${importacoes.aplicacaoId} = ${claimId} and ${importacoes.status} = 'aplicando')`;
  return {
    db: ctx.db,
    log: ctx.log,
    regiao: ctx.regiao,
    id,
    tipo,
    table,
    columns: COLUMNS[tipo],
    entidade: ENTIDADE[tipo],
    colOf: (key) => tableCols[key]!,
    now: now.toISOString(),
    claimId,
    claimed,
    lines: (acao) => sql`l.importacao_id = ${id} and l.acao = ${acao} and ${claimed}`,
    fromLines: sql`from ${importacaoLinhas} ${L}`,
    importRef: { importacao_id: { depois: id } },
  };
}

/**
 * POST /api/importacoes/{id}/aplicar. One read (the import, and for professionals the invitations to
 * prepare), then ONE batch: the claim (`validado` → `aplicando`, a guarded UPDATE: of N parallel
 * applies exactly one claims), a re-check that fails the whole batch when the data changed since the
 * validation, the set-based writes and their activity-log entries (each guarded by the claim), the
 * staging rows dropped and the status `aplicado`. A reference deleted meanwhile fails its foreign key,
 * a key taken meanwhile its unique index: the batch rolls back and the import stays `validado`.
 */
export async function applyImport(ctx: Ctx, id: string) {
  const { imp, invites } = await readImport(ctx, id);
  const a = applyOf(ctx, imp, new Date());
  const { db, now, claimed } = a;
  const writes = updateWrites(a);
  let outboxIds: string[] = [];
  // Creates. Professionals with an e-mail get their login first (the profile references it).
  if (a.tipo === 'profissionais' && invites.length) {
    const invited = await inviteWrites(a, ctx, invites);
    writes.push(...(await loginWrites(a)), ...invited.writes);
    outboxIds = invited.outboxIds;
  }
  writes.push(...createWrites(a, ctx.user.id));
  const { claim, done } = claimAndDone(a);
  const [claimResult] = await runApply(db, [
    claim,
    recheck(a),
    ...writes,
    logStatement(db, ctx.log, {
      acao: 'importacoes.apply',
      entidade: 'importacoes',
      entidadeId: id,
      regiao: ctx.regiao,
      dados: {
        status: { antes: 'validado', depois: 'aplicado' },
        criar: { depois: imp.criar },
        atualizar: { depois: imp.atualizar },
      },
      when: claimed,
    }),
    db.delete(importacaoLinhas).where(and(eq(importacaoLinhas.importacaoId, id), claimed)),
    done,
  ]);
  if ((claimResult as D1Result).meta.changes !== 1)
    throw new ApiError('ALREADY_APPLIED', 'esta importação já foi aplicada');
  for (let i = 0; i < outboxIds.length; i += 100) ctx.mail(outboxIds.slice(i, i + 100));
  return toImportResponse({ ...imp, status: 'aplicado', aplicadoEm: now, updatedAt: now });
}

/** The apply's batch; a constraint it trips (data changed since the validation) is 409, never 500. */
async function runApply(db: Db, stmts: BatchItem<'sqlite'>[]) {
  try {
    return await db.batch(stmts as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  } catch (err) {
    const text = messagesOf(err);
    if (/constraint failed/i.test(text))
      throw new ApiError(
        'CONFLICT',
        'os dados mudaram desde a validação (um registro ou referência do arquivo foi criado, alterado ou excluído): envie o arquivo de novo',
      );
    throw err;
  }
}

function messagesOf(err: unknown): string {
  const parts: string[] = [];
  for (let cur: unknown = err, i = 0; cur && i < 5; i++) {
    parts.push(cur instanceof Error ? cur.message : String(cur));
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return parts.join(' | ');
}
