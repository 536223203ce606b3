// Indexes for every filter and sort of the hot list queries (issue 8): SQLite's plan must not scan
// a whole table or sort in a temporary b-tree. The queries are the ones the routes build.
import { env } from 'cloudflare:test';
import { and, asc, desc, eq, gte, lte } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agenda, cadastroFot, cursos, notifications, users } from '../../src/db/schema';
import { agendaListSelects, agendaOrder, agendaScope, selectAgenda } from '../../src/services/agenda/agenda';
import { fotListSelects, selectFots } from '../../src/services/records/cadastro-fot';
import { listCatalog } from '../../src/services/catalogs/catalogs';
import { resultadoSelects } from '../../src/services/money/resultado';
import { pedidosList } from '../../src/services/payments/pedidos';
import { profissionaisListSelects } from '../../src/services/professionals/profissionais';
import { vagasSelects } from '../../src/services/teams/vagas';
import { db } from '../helpers/factories';
import { getConfig } from '../../src/env';
import { UNKNOWN_ID as ID } from '../helpers/request';

const config = getConfig(env);
const viewer = { id: ID, role: 'agenda_viewer', empresaId: null } as never;
const admin = { role: 'SUPERADMIN', empresaId: null } as const;
const owner = { role: 'EVENT_OWNER', empresaId: ID } as const;

async function plan(query: { toSQL(): { sql: string; params: unknown[] } }) {
  const { sql, params } = query.toSQL();
  const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ id: number; parent: number; detail: string }>();
  // A correlated subquery runs per row of its statement, over that row's few related rows (the
  // functions one professional holds, in label order): its own sort is not the list's.
  const perRow = new Set<number>();
  for (const r of rows.results)
    if (/^CORRELATED SCALAR SUBQUERY/.test(r.detail) || perRow.has(r.parent)) perRow.add(r.id);
  return {
    details: rows.results.map((r) => r.detail),
    ownDetails: rows.results.filter((r) => !perRow.has(r.id)).map((r) => r.detail),
  };
}

/** A cached select (db/scoped-select.ts) as plan() takes it. */
const bound = (q: { sql: string; params: readonly unknown[] }) => ({
  toSQL: () => ({ sql: q.sql, params: [...q.params] }),
});

const hot: [string, () => { toSQL(): { sql: string; params: unknown[] } }, string][] = [
  [
    'FOT list of a region',
    () => selectFots(db).where(eq(cadastroFot.regiao, 'SP')).orderBy(desc(cadastroFot.updatedAt), asc(cadastroFot.id)),
    'cadastro_fot',
  ],
  [
    'FOT list of a company',
    () =>
      selectFots(db)
        .where(and(eq(cadastroFot.regiao, 'SP'), eq(cadastroFot.empresaId, ID)))
        .orderBy(desc(cadastroFot.updatedAt), asc(cadastroFot.id)),
    'cadastro_fot',
  ],
  [
    'agenda of a region',
    () =>
      selectAgenda(db)
        .where(eq(agenda.regiao, 'SP'))
        .orderBy(...agendaOrder),
    'agenda',
  ],
  [
    'agenda of a region between dates',
    () =>
      selectAgenda(db)
        .where(and(eq(agenda.regiao, 'SP'), gte(agenda.dataEvento, '2027-01-01'), lte(agenda.dataEvento, '2027-02-01')))
        .orderBy(...agendaOrder),
    'agenda',
  ],
  [
    'agenda of an agenda_viewer',
    () =>
      selectAgenda(db)
        .where(and(eq(agenda.regiao, 'SP'), agendaScope(viewer)))
        .orderBy(...agendaOrder),
    'agenda',
  ],
  ['catalog list', () => listCatalog({ db, regiao: 'SP' }, cursos), 'cursos'],
  [
    'pending users',
    () => db.select().from(users).where(eq(users.ativo, false)).orderBy(asc(users.createdAt), asc(users.id)),
    'users',
  ],
  [
    'notifications of a user',
    () =>
      db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, ID))
        .orderBy(desc(notifications.createdAt), desc(notifications.id)),
    'notifications',
  ],
  ['orders of a region', () => pedidosList({ db, user: admin, regiao: 'SP' }, {}), 'pedidos'],
  [
    'orders of a region by status',
    () => pedidosList({ db, user: admin, regiao: 'SP' }, { status: 'pendente' }),
    'pedidos',
  ],
  ['orders of a FOT record', () => pedidosList({ db, user: admin, regiao: 'SP' }, { fot_id: ID }), 'pedidos'],
  ['orders of an EVENT_OWNER', () => pedidosList({ db, user: owner, regiao: 'SP' }, {}), 'pedidos'],
];

// GET /api/vagas (D17): the events of the profile's region from today on drive it, by agenda_regiao_data_idx.
hot.push([
  'job listings of a professional',
  () =>
    bound(vagasSelects({ db, config }, { id: ID, role: 'profissional', empresaId: null } as never, { limit: 50 })[1]),
  'agenda',
]);

// Their totals (X-Total-Count) count every match, so they cannot stop early: they must read indexes only
// (a SEARCH ... USING INDEX that is not COVERING reads the table row of every counted row). Allowed
// table reads: the caller's own profile (one row, by its unique usuario_id), users rows (the
// caller's account; a linked profile's account, to tell whether it is pending), and those a case
// names (rows of the caller's own, as many whatever the region's size).
const pro = { id: ID, role: 'profissional', empresaId: null } as never;
/** A total read from the one row kept in contagens (drizzle/0022, 0023, 0025), by its primary key. */
const KEPT_ROW =
  /^SEARCH contagens USING INDEX sqlite_autoindex_contagens_1 \(tabela=\? AND regiao=\? AND dono=\? AND dia=\?\)$/;
const planOf = async (q: { sql: string; params: readonly unknown[] }) => (await plan(bound(q))).details;
/**
 * The listing's total less the places hidden by the caller's `indisponivel` declarations (D24),
 * counted from its declarations: its own rows, their days (a constant list of day numbers,
 * DECLARED_DAYS_SCAN), the open places of its functions on each day they cover (each with its event,
 * to apply the rule) and the rule's probe of its declarations. As many whatever the region's size;
 * nothing when it declared nothing.
 */
/** The day numbers 0..121 the hidden places' count walks per declaration (json_each of a constant): no table. */
const DECLARED_DAYS_SCAN = 'SCAN dn VIRTUAL TABLE INDEX 1:';
const DECLARED = [
  // Its `indisponivel` rows only (disponibilidades_profissional_tipo_idx), never its `preferencial` ones.
  /^SEARCH disponibilidades USING INDEX disponibilidades_profissional_tipo_idx \(profissional_id=\? AND tipo=\?\)$/,
  // By city or state, that filter's index leads (fewer places still).
  /^SEARCH agenda_equipe USING INDEX agenda_equipe_vagas(?:_cidade|_uf)?_idx \(regiao=\? AND funcao_id=\? AND (?:cidade=\? AND |uf=\? AND )?data_evento=\? AND publicar=\?\)$/,
  /^SEARCH av_e USING INDEX sqlite_autoindex_agenda_1 \(id=\?\)$/,
  /^SEARCH av_d USING INDEX disponibilidades_profissional_tipo_idx \(profissional_id=\? AND tipo=\? AND data_inicio<\?\)$/,
];
const totals: [string, () => Promise<string[]>, RegExp[], RegExp[]][] = [
  [
    // The open places of the caller's functions, from the counts kept per function and day (contagens),
    // less those of the events it is invited to: from its own invitations, each place by its primary key.
    'job listings of a professional',
    () => planOf(vagasSelects({ db, config }, pro, { limit: 50 })[0]),
    [
      /^SEARCH profissional_funcoes USING COVERING INDEX \w+ \(profissional_id=\?\)$/,
      /^SEARCH contagens USING INDEX sqlite_autoindex_contagens_1 \(tabela=\? AND regiao=\? AND dono=\? AND dia>\?\)$/,
      /^SEARCH convites USING COVERING INDEX convites_profissional_status_idx \(profissional_id=\?\)$/,
      /^SEARCH agenda_equipe USING INDEX sqlite_autoindex_agenda_equipe_1 \(agenda_id=\? AND funcao_id=\?\)$/,
    ],
    [
      /^SEARCH contagens USING INDEX sqlite_autoindex_contagens_1 \(tabela=\? AND regiao=\? AND dono=\? AND dia>\?\)$/,
      /^SEARCH agenda_equipe USING INDEX sqlite_autoindex_agenda_equipe_1 \(agenda_id=\? AND funcao_id=\?\)$/,
      ...DECLARED,
    ],
  ],
  [
    // Filtered by the event's type: one index range per function (agenda_equipe_vagas_idx), and each
    // open place's event by its primary key to test the filter (what a filtered total costs).
    'job listings of a professional of one event type',
    () => planOf(vagasSelects({ db, config }, pro, { tipo_evento_id: ID, limit: 50 })[0]),
    [
      /^SEARCH profissional_funcoes USING COVERING INDEX \w+ \(profissional_id=\?\)$/,
      /^SEARCH agenda_equipe USING INDEX agenda_equipe_vagas_idx \(regiao=\? AND funcao_id=\? AND data_evento>\?\)$/,
      /^SEARCH convites USING COVERING INDEX convites_profissional_status_idx \(profissional_id=\?\)$/,
      /^SEARCH agenda_equipe USING INDEX sqlite_autoindex_agenda_equipe_1 \(agenda_id=\? AND funcao_id=\?\)$/,
    ],
    [
      /^SEARCH agenda_equipe USING INDEX agenda_equipe_vagas_idx \(regiao=\? AND funcao_id=\? AND data_evento>\?\)$/,
      /^SEARCH agenda USING INDEX sqlite_autoindex_agenda_1 \(id=\?\)$/,
      /^SEARCH agenda_equipe USING INDEX sqlite_autoindex_agenda_equipe_1 \(agenda_id=\? AND funcao_id=\?\)$/,
      ...DECLARED,
    ],
  ],
  [
    // Filtered by city or state: the team rows' kept copies of their event's record's (drizzle/0040)
    // lead to the matching open places only, with no event or record to read for the filter.
    'job listings of a professional in one city',
    () => planOf(vagasSelects({ db, config }, pro, { cidade: 'Campinas', limit: 50 })[0]),
    [
      /^SEARCH agenda_equipe USING COVERING INDEX agenda_equipe_vagas_cidade_idx \(regiao=\? AND funcao_id=\? AND cidade=\? AND data_evento>\?\)$/,
    ],
    [
      /^SEARCH agenda_equipe USING INDEX sqlite_autoindex_agenda_equipe_1 \(agenda_id=\? AND funcao_id=\?\)$/,
      ...DECLARED,
    ],
  ],
  [
    'job listings of a professional in one state',
    () => planOf(vagasSelects({ db, config }, pro, { uf: 'SP', limit: 50 })[0]),
    [
      /^SEARCH agenda_equipe USING COVERING INDEX agenda_equipe_vagas_uf_idx \(regiao=\? AND funcao_id=\? AND uf=\? AND data_evento>\?\)$/,
    ],
    [
      /^SEARCH agenda_equipe USING INDEX sqlite_autoindex_agenda_equipe_1 \(agenda_id=\? AND funcao_id=\?\)$/,
      ...DECLARED,
    ],
  ],
  [
    // Unfiltered, one row kept by triggers (drizzle/0022): the same for an administrator's region.
    'events of an agenda_viewer',
    () => planOf(agendaListSelects({ db, regiao: 'SP' }, viewer, { ...{}, ...{ limit: 50 } })[2]!),
    [KEPT_ROW],
    [KEPT_ROW],
  ],
  [
    'events of a region (administrator, unfiltered)',
    () => planOf(agendaListSelects({ db, regiao: 'SP' }, { id: ID, ...admin }, { ...{}, ...{ limit: 50 } })[2]!),
    [KEPT_ROW],
    [KEPT_ROW],
  ],
  [
    // Filtered, its own events of the region, from its own index: not every event row of the region.
    'events of an agenda_viewer between dates',
    () => planOf(agendaListSelects({ db, regiao: 'SP' }, viewer, { ...{ de: '2027-01-01' }, ...{ limit: 50 } })[2]!),
    [
      /^SEARCH agenda USING COVERING INDEX agenda_user_regiao_data_idx \(user_id=\? AND regiao=\? AND data_evento>\?\)$/,
    ],
    [],
  ],
  [
    'events of a region (administrator)',
    () =>
      planOf(
        agendaListSelects(
          { db, regiao: 'SP' },
          { id: ID, ...admin },
          { ...{ de: '2027-01-01' }, ...{ limit: 50 } },
        )[2]!,
      ),
    [/^SEARCH agenda USING COVERING INDEX agenda_regiao_data_idx \(regiao=\? AND data_evento>\?\)$/],
    [],
  ],
  [
    // Unfiltered, or filtered by a company, one row kept by triggers (drizzle/0023).
    'FOT records of a region (administrator)',
    () => planOf(fotListSelects({ db, regiao: 'SP' }, { id: ID, ...admin }, { limit: 50 })[1]!),
    [KEPT_ROW],
    [KEPT_ROW],
  ],
  [
    'FOT records of an EVENT_OWNER',
    () => planOf(fotListSelects({ db, regiao: 'SP' }, { id: ID, ...owner }, { limit: 50 })[1]!),
    [KEPT_ROW],
    [KEPT_ROW],
  ],
  [
    // Its listed profiles, one row kept by triggers (drizzle/0025).
    'professionals of a region (administrator)',
    () => planOf(profissionaisListSelects({ db, regiao: 'SP' }, { id: ID, ...admin }, { limit: 50 })[1]!),
    [KEPT_ROW],
    [KEPT_ROW],
  ],
];

// GET /api/financeiro/resultado: the sums triggers keep (drizzle/0035), by their primary key, and the
// answered categories' names; a class's result also reads its record (its gastos_captacao).
const SUMS_ROWS = /^SEARCH (somas_lancamentos|s) USING PRIMARY KEY \(regiao=\? AND escopo=\? AND chave[=>]\?/;
const CATEGORY = /^SEARCH (c|categorias_financeiras) USING INDEX \w+ \((id|regiao)=\?/;
const resultadoPlan = (q: Parameters<typeof resultadoSelects>[1]) =>
  planOf(resultadoSelects({ db, regiao: 'SP' }, q)[1] as never);
for (const [name, q] of [
  ['class', { fot_id: ID }],
  ['event', { agenda_id: ID }],
  ['period', { de: '2027-01-01', ate: '2027-12-31' }],
] as const)
  totals.push([
    `finance result of a ${name}`,
    () => resultadoPlan(q),
    [SUMS_ROWS],
    [CATEGORY, /^SEARCH f USING INDEX sqlite_autoindex_cadastro_fot_1 \(id=\?\)$/],
  ]);

// GET /api/profissionais?limit=50 (an administrator): the page walks profissionais_regiao_nome_login_idx.
hot.push([
  'page of professionals of a region',
  () => bound(profissionaisListSelects({ db, regiao: 'SP' }, { id: ID, ...admin }, { limit: 50 })[0]),
  'profissionais',
]);

describe('query plans of the hot list queries', () => {
  it.each(totals)('total of the %s: indexes only, no scan', async (_name, explain, expected, ownRows) => {
    const details = await explain();
    const line = details.join(' | ');
    for (const e of expected)
      expect(
        details.some((d) => e.test(d)),
        `${e} in ${line}`,
      ).toBe(true);
    // A subquery's own rows (a CO-ROUTINE or MATERIALIZE the plan names) are not a table.
    const subqueries = new Set(details.map((d) => /^(?:CO-ROUTINE|MATERIALIZE) (\w+)$/.exec(d)?.[1]).filter(Boolean));
    expect(
      details.filter(
        (d) => /^SCAN /.test(d) && d !== 'SCAN CONSTANT ROW' && d !== DECLARED_DAYS_SCAN && !subqueries.has(d.slice(5)),
      ),
      line,
    ).toEqual([]);
    const tableReads = details.filter(
      (d) =>
        /^SEARCH \w+ USING INDEX /.test(d) && !/USING INDEX profissionais_usuario_id_unique \(usuario_id=\?\)$/.test(d),
    );
    expect(
      tableReads.filter((d) => !/^SEARCH users /.test(d) && !ownRows.some((r) => r.test(d))),
      line,
    ).toEqual([]);
  });

  it.each(hot)('%s: no full scan, no sort', async (_name, build, table) => {
    const { details, ownDetails } = await plan(build());
    const line = details.join(' | ');
    expect(
      details.some((d) => new RegExp(`^SCAN ${table}$`).test(d)),
      line,
    ).toBe(false);
    expect(
      ownDetails.some((d) => /USE TEMP B-TREE FOR ORDER BY/.test(d)),
      line,
    ).toBe(false);
    expect(
      details.some((d) => new RegExp(`^(SEARCH|SCAN) ${table} USING`).test(d)),
      line,
    ).toBe(true);
  });
});

// A professional's agenda (its invitations) and an EVENT_OWNER's (its companies' records) start from the
// caller's own rows, never from the region's every event in date order (services/agenda/agenda.ts visible).
/** Each query's plan starts from `start` and never takes `never`. */
async function expectStartsFrom(queries: readonly unknown[], start: RegExp, never: RegExp) {
  for (const q of queries) {
    const details = await planOf(q as never);
    const line = details.join(' | ');
    expect(
      details.some((d) => start.test(d)),
      line,
    ).toBe(true);
    expect(
      details.some((d) => never.test(d)),
      line,
    ).toBe(false);
  }
}

describe("the agenda of a caller who sees a few of the region's events", () => {
  it.each([
    [
      'profissional',
      { id: ID, role: 'profissional', empresaId: null },
      /^SEARCH \w+ USING INDEX sqlite_autoindex_agenda_1 \(id=\?\)$/,
    ],
    ['EVENT_OWNER', { id: ID, ...owner }, /^SEARCH \w+ USING INDEX agenda_fot_idx \(fot_id=\?\)$/],
  ] as const)('%s: its page, its teams and its total', async (_role, scope, start) => {
    await expectStartsFrom(
      agendaListSelects({ db, regiao: 'SP' }, scope as never, { ...{}, ...{ limit: 50 } }),
      start,
      /agenda_regiao_data_idx|^SCAN agenda$/,
    );
  });
});

// The job listings filtered by city start from the places of that city (their kept copy, drizzle/0040)
// and sort those, never the region's every event in date order.
describe('the job listings of a city', () => {
  it.each([{}, { funcao_id: ID }])('page and total start from agenda_equipe_vagas_cidade_idx (%o)', async (more) => {
    await expectStartsFrom(
      vagasSelects({ db, config }, pro, { cidade: 'Campinas', ...more, limit: 50 }),
      /^SEARCH agenda_equipe USING (COVERING )?INDEX agenda_equipe_vagas_cidade_idx \(regiao=\? AND funcao_id=\? AND cidade=\?/,
      /agenda_regiao_data_idx|^SCAN (agenda|agenda_equipe)$/,
    );
  });
});

// Filtered by one function (and perhaps a state), the page walks that function's open places in date
// order and stops after its rows, never the region's every event.
describe('the job listings of one function', () => {
  it.each([
    [{}, 'agenda_equipe_vagas_idx \\(regiao=\\? AND funcao_id=\\? AND data_evento>'],
    [
      { uf: 'SP', ate: '2031-12-31' },
      'agenda_equipe_vagas_uf_idx \\(regiao=\\? AND funcao_id=\\? AND uf=\\? AND data_evento>',
    ],
  ])('the page starts from its places (%o)', async (more, index) => {
    await expectStartsFrom(
      [vagasSelects({ db, config }, pro, { funcao_id: ID, ...more, limit: 50 })[1]],
      new RegExp(`^SEARCH agenda_equipe USING (COVERING )?INDEX ${index}`),
      /agenda_regiao_data_idx|^SCAN (agenda|agenda_equipe)$|USE TEMP B-TREE FOR ORDER BY/,
    );
  });
});

// A foreign key is checked on every delete (or key change) of the row it references: without an index
// led by the referencing column, SQLite scans the whole child table (deleting a user scanned every
// invitation it sent; deleting an invitation scanned every finance entry).
describe('every foreign key has an index led by its column', () => {
  it('no child table is scanned to enforce a reference', async () => {
    const { getTableConfig, SQLiteTable } = await import('drizzle-orm/sqlite-core');
    const schema = await import('../../src/db/schema');
    const missing: string[] = [];
    for (const t of Object.values(schema)) {
      if (!(t instanceof SQLiteTable)) continue;
      const cfg = getTableConfig(t);
      const led = new Set<string>();
      // A partial index does not serve a foreign key: only full ones count.
      for (const i of cfg.indexes) if (!i.config.where) led.add((i.config.columns[0] as { name: string }).name);
      for (const pk of cfg.primaryKeys) led.add(pk.columns[0]!.name);
      for (const c of cfg.columns) if (c.primary || c.isUnique) led.add(c.name);
      for (const fk of cfg.foreignKeys) {
        const col = fk.reference().columns[0]!.name;
        if (!led.has(col)) missing.push(`${cfg.name}.${col}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

// A migration that rebuilds a table (drizzle-kit's CREATE __new / copy / DROP / RENAME for many column
// changes) drops every trigger on it, silently: the append-only log (0005) and the kept columns (0018)
// would stop holding. Every trigger a migration creates, and no later one drops, must still exist.
describe('every trigger the migrations create is still there', () => {
  it('matches sqlite_schema', async () => {
    const made = new Set<string>();
    for (const m of env.TEST_MIGRATIONS)
      for (const q of m.queries) {
        for (const [, name] of q.matchAll(/CREATE TRIGGER\s+[`"]?(\w+)/gi)) made.add(name!);
        for (const [, name] of q.matchAll(/DROP TRIGGER\s+(?:IF EXISTS\s+)?[`"]?(\w+)/gi)) made.delete(name!);
      }
    const { results } = await env.DB.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger'`).all<{
      name: string;
    }>();
    expect(made.size).toBeGreaterThanOrEqual(10);
    expect(results.map((r) => r.name).sort()).toEqual([...made].sort());
  });
});
