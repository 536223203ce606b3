import { and, count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cachedBatch, cachedSelect, returned, rows, runBatch } from '../../src/db/cached-batch';
import { fastSelect } from '../../src/db/fast-select';
import { insertColumnsWhere } from '../../src/db/guarded';
import {
  agenda,
  agendaEquipe,
  cadastroFot,
  cursos,
  empresas,
  funcoes,
  notifications,
  profissionais,
  tiposEventos,
  users,
} from '../../src/db/schema';
import { selectAgenda } from '../../src/services/agenda/agenda';
import { selectFots, visible as fotVisible } from '../../src/services/records/cadastro-fot';
import { scopedSelect } from '../../src/db/scoped-select';
import { writeThenRead } from '../../src/db/write-read';
import type { Scope } from '../../src/db/scope';
import { equipeQuery } from '../../src/services/agenda/equipe';
import { profissionaisComAvaliacaoQuery, profissionaisQuery } from '../../src/services/professionals/profissionais';
import { accountQuery } from '../../src/services/accounts/users';
import {
  db,
  makeCatalog,
  makeFot,
  makeNotification,
  makeProfissional,
  makeSurveyResponse,
  makeUser,
  uniq,
} from '../helpers/factories';

/**
 * fastSelect (the hot reads' row mapper) must give exactly what drizzle's own db.batch() gives:
 * the same selects are run both ways over rows with nulls, booleans, JSON and money.
 */
describe('fastSelect equals db.batch()', () => {
  it('for every select behind the folded reads', async () => {
    const user = await makeUser({ role: 'profissional', telefone: null });
    const lone = await makeUser({ role: 'agenda_viewer' }); // no company, no profile: left joins give nulls
    const f = await makeCatalog(funcoes, 'MG');
    const tipo = await makeCatalog(tiposEventos, 'MG');
    const fot = await makeFot('MG', { preVenda: true, gastosCaptacaoCentavos: 12345, observacoes: null });
    await makeFot('MG', { preVenda: false, gastosCaptacaoCentavos: null });
    const [ev] = await db
      .insert(agenda)
      .values({
        regiao: 'MG',
        userId: user.id,
        fotId: fot.id,
        tipoEventoId: tipo.id,
        dataEvento: '2027-03-01',
        preVenda: true,
      })
      .returning();
    await db
      .insert(agenda)
      .values({ regiao: 'MG', userId: user.id, fotId: fot.id, tipoEventoId: tipo.id, dataEvento: '2027-03-02' });
    await db.insert(agendaEquipe).values({ agendaId: ev!.id, funcaoId: f.id, quantidade: 3 });
    // Functions held in an order other than their labels'; a client's rating of the profile (JSON columns).
    const [zeta, alfa] = [
      await makeCatalog(funcoes, 'MG', uniq('Zeta')),
      await makeCatalog(funcoes, 'MG', uniq('Alfa')),
    ];
    const rated = await makeProfissional('MG', { usuarioId: user.id, carroDisponivel: true, temEstudio: null }, [
      f.id,
      zeta.id,
      alfa.id,
    ]);
    await makeProfissional('MG', { funcaoProfissionalId: null }, []);
    await makeSurveyResponse('MG', [[rated.id, 'qual_tec', 4]]);
    await makeNotification(user.id, { dados: { agenda_id: ev!.id, n: 1 } });

    const inMg = eq(profissionais.regiao, 'MG');
    const queries = [
      db.select().from(users).where(eq(users.id, user.id)),
      selectFots(db).where(eq(cadastroFot.regiao, 'MG')),
      selectAgenda(db).where(eq(agenda.regiao, 'MG')),
      equipeQuery(db, eq(agenda.regiao, 'MG')),
      profissionaisQuery(db, inMg),
      profissionaisComAvaliacaoQuery(db, inMg),
      db.select({ n: count() }).from(agenda).where(eq(agenda.regiao, 'MG')),
      db.select().from(notifications).where(eq(notifications.userId, user.id)),
      accountQuery(db, eq(users.id, user.id)),
      accountQuery(db, eq(users.id, lone.id)),
    ] as const;
    const fast = await fastSelect(db, queries);
    const drizzle = await db.batch(queries);
    expect(fast).toEqual(drizzle);
    // Not vacuous: the rows are there, with decoded booleans, JSON and numbers.
    expect(fast[0][0]!.ativo).toBe(true);
    expect(fast[1].some((r) => r.fot.preVenda === true) && fast[1].some((r) => r.fot.preVenda === false)).toBe(true);
    expect(fast[2].length).toBeGreaterThanOrEqual(2);
    expect(fast[3][0]!.quantidade).toBe(3);
    const byLabel = [alfa, f, zeta]; // Alfa…, Nome…, Zeta…
    const ratedRow = fast[5].find((r) => r.p.id === rated.id)!;
    expect(ratedRow.funcoes).toEqual(byLabel.map((x) => ({ id: x.id, nome: x.label })));
    expect(ratedRow.avaliacoes).toEqual([{ criterio: 'qual_tec', n: 1, valor: 4, respostas: 1 }]);
    expect(fast[4].find((r) => r.p.id === rated.id)!.funcoes).toEqual(ratedRow.funcoes);
    expect(fast[5].find((r) => r.p.id !== rated.id)).toMatchObject({ funcoes: [], avaliacoes: [] });
    expect(fast[6][0]!.n).toBeGreaterThanOrEqual(2);
    expect(fast[7][0]!.dados).toEqual({ agenda_id: ev!.id, n: 1 });
    expect(fast[8][0]!.prof?.id).toBeTruthy();
    expect(fast[9][0]!.prof?.id).toBeNull();
  });

  it('refuses a selection whose column names repeat instead of overwriting one with the other', async () => {
    const q = db
      .select({ a: users.id, b: funcoes.id })
      .from(users)
      .innerJoin(funcoes, sql`1`)
      .limit(1);
    await makeCatalog(funcoes, 'SP');
    await expect(fastSelect(db, [q])).rejects.toThrow(/alias them/);
  });

  it('a cached select builds its SQL once per shape and binds the values of each call', async () => {
    const inRegion = cachedSelect({
      params: ['regiao', 'id'],
      build: (d, s: { one: boolean }, p) =>
        d
          .select({ id: cursos.id, nome: cursos.label })
          .from(cursos)
          .where(and(eq(cursos.regiao, p.regiao), s.one ? eq(cursos.id, p.id) : undefined)),
    });
    const [mg, sp] = [await makeCatalog(cursos, 'MG'), await makeCatalog(cursos, 'SP')];
    const [inMg, inSp, justMg] = await fastSelect(db, [
      inRegion(db, { one: false }, { regiao: 'MG', id: undefined }),
      inRegion(db, { one: false }, { regiao: 'SP', id: undefined }),
      inRegion(db, { one: true }, { regiao: 'MG', id: mg.id }),
    ]);
    expect(inMg.map((r) => r.id)).toContain(mg.id);
    expect(inMg.map((r) => r.id)).not.toContain(sp.id);
    expect(inSp.map((r) => r.id)).toContain(sp.id);
    expect(justMg).toEqual([{ id: mg.id, nome: mg.label }]);
    expect(inRegion(db, { one: false }, { regiao: 'MG', id: undefined }).sql).toBe(
      inRegion(db, { one: false }, { regiao: 'SP', id: undefined }).sql,
    );
    expect(inRegion(db, { one: true }, { regiao: 'MG', id: mg.id }).sql).not.toBe(
      inRegion(db, { one: false }, { regiao: 'MG', id: undefined }).sql,
    );
    expect(() => inRegion(db, { one: true }, { regiao: 'MG', id: undefined })).toThrow(/no value for id/);
  });
});

/**
 * scopedSelect (db/scoped-select.ts): the prepared, scope-dependent read gives exactly what the
 * same query built by hand for that caller gives, for every role shape (with and without a company).
 */
describe('scopedSelect equals the query built for the caller', () => {
  it('for each role, company set or not, and switches on and off', async () => {
    const empresa = await makeCatalog(empresas, 'MG');
    const fotMine = await makeFot('MG', { empresaId: empresa.id });
    await makeFot('MG');
    const scopes: Scope[] = [
      { id: crypto.randomUUID(), role: 'SUPERADMIN', empresaId: null },
      { id: crypto.randomUUID(), role: 'EVENT_OWNER', empresaId: empresa.id },
      { id: crypto.randomUUID(), role: 'EVENT_OWNER', empresaId: null },
    ];
    const byHand = (scope: Scope, filtro: string | null) =>
      selectFots(db)
        .where(and(...fotVisible(scope, 'MG'), filtro ? eq(cadastroFot.empresaId, filtro) : undefined))
        .orderBy(cadastroFot.id);
    const prepared = scopedSelect({
      params: ['regiao', 'filtro'],
      build: (d, scope, p, x: { filtro: boolean }) =>
        selectFots(d)
          .where(and(...fotVisible(scope, p.regiao), x.filtro ? eq(cadastroFot.empresaId, p.filtro) : undefined))
          .orderBy(cadastroFot.id),
    });
    let nonEmpty = 0;
    for (const scope of scopes) {
      for (const filtro of [null, empresa.id]) {
        const [fast] = await fastSelect(db, [
          prepared(db, scope, { regiao: 'MG', filtro }, { filtro: filtro !== null }),
        ]);
        expect(fast).toEqual(await byHand(scope, filtro));
        if (fast.length > 0) nonEmpty++;
      }
    }
    // Not vacuous: the administrator sees rows, the company's owner its own only, the companyless owner none.
    expect(nonEmpty).toBeGreaterThanOrEqual(3);
    const [ownerRows] = await fastSelect(db, [
      prepared(db, scopes[1]!, { regiao: 'MG', filtro: null }, { filtro: false }),
    ]);
    expect(ownerRows.map((r) => r.fot.id)).toEqual([fotMine.id]);
  });
});

/** writeThenRead (db/write-read.ts) answers exactly what db.batch() answers for the same statements after the writes. */
describe('writeThenRead equals the tail of db.batch()', () => {
  it('for reads after writes and for a write whose meta tells whether it happened', async () => {
    const a = await makeCatalog(cursos, 'MG');
    const b = await makeCatalog(cursos, 'MG');
    const rename = (id: string, label: string) => db.update(cursos).set({ label }).where(eq(cursos.id, id));
    const readBoth = () =>
      db
        .select({ id: cursos.id, label: cursos.label })
        .from(cursos)
        .where(sql`${cursos.id} in (${a.id}, ${b.id})`)
        .orderBy(cursos.id);
    const [rows] = await writeThenRead(db, [rename(a.id, `${a.label} x`)], [readBoth()]);
    const batch = await db.batch([rename(b.id, `${b.label} y`), readBoth()]);
    expect(rows.map((r) => r.label).sort()).toEqual([`${a.label} x`, b.label].sort());
    expect(batch[1].map((r) => r.label).sort()).toEqual([`${a.label} x`, `${b.label} y`].sort());
    const [again] = await writeThenRead(db, [], [readBoth()]);
    expect(again).toEqual(batch[1]);
    const [missed] = await writeThenRead(db, [], [rename(crypto.randomUUID(), 'nada')]);
    expect(missed.meta.changes).toBe(0);
  });
});

/**
 * A cached batch (db/cached-batch.ts) runs statements built once per shape with new values each
 * time: its results equal drizzle's own for the same statements with the values inline, and nothing
 * of a first call is frozen into a later one.
 */
describe('a cached batch equals drizzle', () => {
  const insertCurso = cachedBatch({
    params: ['id', 'regiao', 'label', 'labelKey', 'createdAt', 'updatedAt'],
    build: (d, s: { when: boolean }, p) => ({
      row: returned(
        cursos,
        insertColumnsWhere(
          d,
          cursos,
          ['id', 'regiao', 'label', 'labelKey', 'createdAt', 'updatedAt'],
          p,
          s.when ? sql`1` : sql`0`,
        ).returning(),
      ),
    }),
  });
  const fotById = cachedSelect({
    params: ['id'],
    build: (d, _: undefined, p) => selectFots(d).where(eq(cadastroFot.id, p.id)),
  });
  const values = (label: string) => ({
    id: crypto.randomUUID(),
    regiao: 'MG',
    label,
    labelKey: label.toLowerCase(),
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  });

  it('for an insert with RETURNING and a select with joins, in one batch, results by name', async () => {
    const a = values(`Prep A ${crypto.randomUUID()}`);
    const b = values(`Prep B ${crypto.randomUUID()}`);
    const { rowA, rowB } = await runBatch(db, {
      rowA: insertCurso.bind(db, { when: true }, a).row,
      rowB: insertCurso.bind(db, { when: true }, b).row,
    });
    const stored = await db
      .select()
      .from(cursos)
      .where(sql`${cursos.id} in (${a.id}, ${b.id})`);
    expect([...rowA, ...rowB].sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      stored.sort((x, y) => x.id.localeCompare(y.id)),
    );
    expect(rowB).toEqual([{ ...b }]);
    const refused = await insertCurso.run(db, { when: false }, values(`Prep C ${crypto.randomUUID()}`));
    expect(refused.row).toEqual([]);

    const fot = await makeFot('MG', { preVenda: true, gastosCaptacaoCentavos: 12345, observacoes: null });
    const other = await makeFot('MG', { preVenda: false, gastosCaptacaoCentavos: null });
    const [mine, theirs] = await fastSelect(db, [
      fotById(db, undefined, { id: fot.id }),
      fotById(db, undefined, { id: other.id }),
    ]);
    const [drizzleMine, drizzleTheirs] = await db.batch([
      selectFots(db).where(eq(cadastroFot.id, fot.id)),
      selectFots(db).where(eq(cadastroFot.id, other.id)),
    ]);
    expect(mine).toEqual(drizzleMine);
    expect(theirs).toEqual(drizzleTheirs);
  });

  it('binds a null through a nullable boolean or JSON column as null, as drizzle does', async () => {
    const columns = ['id', 'regiao', 'nome', 'temEstudio', 'createdAt', 'updatedAt'] as const;
    const insert = cachedBatch({
      params: columns,
      build: (d, _: undefined, p) => ({
        row: returned(profissionais, insertColumnsWhere(d, profissionais, columns, p, sql`1`).returning()),
      }),
    });
    const now = new Date().toISOString();
    const id = crypto.randomUUID();
    const { row } = await insert.run(db, undefined, {
      id,
      regiao: 'MG',
      nome: 'Sem estúdio',
      temEstudio: null,
      createdAt: now,
      updatedAt: now,
    });
    expect(row[0]!.temEstudio).toBeNull();
    const [stored] = await db.select().from(profissionais).where(eq(profissionais.id, id));
    expect(stored!.temEstudio).toBeNull();
    // RETURNING maps the whole row as drizzle does (a kept column's trigger runs after it: db/kept-columns.ts).
    const { listado: _returned, ...returnedRow } = row[0]!;
    const { listado: _kept, ...storedRow } = stored!;
    expect(returnedRow).toEqual(storedRow);
  });

  it('refuses an insert that would freeze a default ($defaultFn) into its SQL', () => {
    expect(() => insertColumnsWhere(db, cursos, ['regiao', 'label', 'labelKey'], {}, sql`1`)).toThrow(
      /id needs a value/,
    );
  });
});

describe('a cached batch refuses a value of the request outside its placeholders', () => {
  it('an undeclared placeholder, at build time', () => {
    const undeclared = cachedSelect({
      params: ['id'],
      build: (d, _: undefined) =>
        d
          .select({ id: cursos.id })
          .from(cursos)
          .where(eq(cursos.id, sql.placeholder('other'))),
    });
    expect(() => undeclared(db, undefined, { id: 'x' })).toThrow(/placeholder other, which is not declared/);
  });

  it('a wide string or number in the shape, and a value not declared or missing: by the types', () => {
    const batch = cachedSelect({
      params: ['id'],
      build: (d, s: { role: string; n: number }, p) =>
        d
          .select({ id: cursos.id })
          .from(cursos)
          .where(and(eq(cursos.id, p.id), eq(cursos.regiao, s.role))),
    });
    const finite = cachedSelect({
      params: ['id'],
      build: (d, s: { one: boolean; role: 'a' | 'b' }, p) =>
        d
          .select({ id: cursos.id })
          .from(cursos)
          .where(s.one ? eq(cursos.id, p.id) : undefined),
    });
    // Type checks only: tsc (npm test) fails if any of these compiles.
    const typeErrors = () => [
      // @ts-expect-error a wide string and number in the shape: request values in disguise
      batch(db, { role: 'MG', n: 1 }, { id: 'x' }),
      // @ts-expect-error a value whose name is not declared
      finite(db, { one: true, role: 'a' }, { id: 'x', regiao: 'MG' }),
      // @ts-expect-error a declared value missing
      finite(db, { one: true, role: 'a' }, {}),
    ];
    expect(typeof typeErrors).toBe('function');
    expect(finite(db, { one: true, role: 'a' }, { id: 'x' }).params).toEqual(['x']);
  });

  it('a value made inside the builder: the uncached path differs (test/perf/cached-batch.test.ts compares them)', () => {
    const frozen = cachedBatch({
      params: ['regiao'],
      build: (d, _: undefined, p) => ({
        rows: rows(
          d
            .select({ id: cursos.id })
            .from(cursos)
            .where(and(eq(cursos.regiao, p.regiao), eq(cursos.id, crypto.randomUUID()))),
        ),
      }),
    });
    const cachedParams = frozen.bind(db, undefined, { regiao: 'MG' }).rows.params;
    expect(frozen.uncached(db, undefined, { regiao: 'MG' }).rows.params).not.toEqual(cachedParams);
  });
});
