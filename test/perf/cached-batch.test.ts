import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { everyCachedBatch, type Statements } from '../../src/db/cached-batch';
import { cachedAuthor } from '../../src/db/authored';
import { categoriasFinanceiras, cursos, type CatalogTable } from '../../src/db/schema';
import type { Scope } from '../../src/db/scope';
import { getConfig } from '../../src/env';
import { selectUser } from '../../src/middleware/admission';
import { logPageSelect } from '../../src/services/core/activity-log-list';
import { agendaByIdSelects, agendaListSelects } from '../../src/services/agenda/agenda';
import { loginLog } from '../../src/services/accounts/auth';
import { fotByIdSelect, fotCreate, fotListSelects } from '../../src/services/records/cadastro-fot';
import { catalogInsert } from '../../src/services/catalogs/catalogs';
import { acceptBatch, declineBatch } from '../../src/services/teams/answer';
import { entryCreate } from '../../src/services/money/lancamentos';
import { resultadoSelects } from '../../src/services/money/resultado';
import { profissionaisListSelects, profissionalByIdSelects } from '../../src/services/professionals/profissionais';
import {
  attemptStatements,
  failureKeys,
  newSession,
  registerKeys,
  releaseLoginAttempt,
} from '../../src/services/accounts/sessions';
import { accountByEmail, accountSelect, accountSelectLive } from '../../src/services/accounts/users';
import { vagasSelects } from '../../src/services/teams/vagas';
import { db } from '../helpers/factories';

/**
 * Every cached batch (db/cached-batch.ts) gives, for every shape the app builds it for, the same
 * SQL and parameters as its uncached path: the same builder given the values themselves, built by
 * drizzle on the spot. A builder that froze a value of its own (an id, a clock) or that a value
 * would steer differently from its placeholder fails here.
 *
 * The shapes are those the services build below (the hot writes for each author check); the last
 * test fails for a cached batch that none of them built, so a new one must be exercised here.
 */

const id = '11111111-2222-4333-8444-555555555555';
const scopes: Scope[] = [
  { id, role: 'SUPERADMIN', empresaId: null },
  { id, role: 'BUSINESS_OWNER', empresaId: null },
  { id, role: 'EVENT_OWNER', empresaId: id },
  { id, role: 'EVENT_OWNER', empresaId: null },
  { id, role: 'agenda_viewer', empresaId: null },
  { id, role: 'profissional', empresaId: null },
];
const authorShapes = [
  cachedAuthor(scopes[0]!, null).shape,
  cachedAuthor(scopes[0]!, 'sid').shape,
  cachedAuthor(scopes[2]!, 'sid').shape,
  cachedAuthor(scopes[5]!, 'sid').shape,
];

/** Builds every cached statement the app has, for the shapes its requests use. */
async function buildEveryShape() {
  for (const scope of scopes) {
    selectUser(db, { sub: scope.id, role: scope.role, sid: 'sid' } as never);
    accountSelect(db, scope.id);
    accountSelectLive(db, scope.id, 'sid');
    for (const page of [{}, { limit: 10, offset: 20 }]) {
      for (const f of [{}, { de: '2027-01-01', ate: '2027-02-01', fot_id: id }])
        agendaListSelects({ db, regiao: 'SP' }, scope, { ...f, ...page });
      profissionaisListSelects({ db, regiao: 'SP' }, scope, page);
      for (const empresa of [undefined, id])
        fotListSelects({ db, regiao: 'SP' }, scope, { empresa_id: empresa, ...page });
      for (const f of [{}, { funcao_id: id, ate: '2027-02-01' }, { cidade: 'Recife', uf: 'pe', tipo_evento_id: id }])
        vagasSelects({ db, config: getConfig(env) }, scope, { ...f, ...page });
    }
    agendaByIdSelects({ db, regiao: 'SP' }, scope, id);
    profissionalByIdSelects({ db, regiao: 'SP' }, scope, id);
    fotByIdSelect({ db, regiao: 'SP' }, scope, id);
    logPageSelect({ db, regiao: 'SP' }, scope, { limit: 50 });
    logPageSelect({ db, regiao: 'SP' }, scope, {
      limit: 50,
      entidade: 'convites',
      de: '2027-01-01',
      antes: { seq: 10 },
    });
  }
  for (const q of [{ fot_id: id }, { agenda_id: id }, { de: '2027-01-01', ate: '2027-02-01' }])
    resultadoSelects({ db, regiao: 'SP' }, q);
  accountByEmail(db, 'a@example.com');
  for (const keys of [failureKeys('a@example.com', '198.18.0.1'), registerKeys('198.18.0.1')]) {
    const { ids } = attemptStatements(db, keys);
    releaseLoginAttempt(db, ids);
    releaseLoginAttempt(db, ids, keys[0]);
  }
  await newSession({ db, config: getConfig(env) }, { id, role: 'profissional', empresaId: null });
  bindSample(loginLog, undefined);
  const fotRequired = ['id', 'regiao', 'fot', 'empresaId', 'cursoId', 'anoFormaturaId', 'createdAt', 'updatedAt'];
  const fotOptional = ['instituicao', 'cidade', 'estado', 'observacoes', 'gastosCaptacaoCentavos', 'preVenda'];
  for (const author of authorShapes) {
    bindSample(acceptBatch, { author });
    bindSample(declineBatch, { author });
    for (const table of [cursos, categoriasFinanceiras as unknown as CatalogTable])
      bindSample(catalogInsert(table), { author });
    for (const columns of [fotRequired, [...fotRequired, ...fotOptional]]) bindSample(fotCreate, { author, columns });
    for (const refs of [
      { fot: false, agenda: false, profissional: false },
      { fot: true, agenda: true, profissional: true },
    ])
      bindSample(entryCreate, { author, ...refs });
  }
}

/** A cached batch of any shape and names, as this test drives it. */
type AnyBatch = {
  params: readonly string[];
  shapes(): unknown[];
  bind(db: unknown, shape: unknown, values: Record<string, unknown>): Statements;
  uncached(db: unknown, shape: unknown, values: Record<string, unknown>): Statements;
};
/** A batch bound for `shape` with sample values (what a write's own code would bind). */
const bindSample = (batch: unknown, shape: unknown) => {
  const b = batch as AnyBatch;
  return b.bind(db, shape, valuesFor(b.params, 's'));
};

/**
 * A value for each declared name: text; or null for those a request may bind as null whatever its
 * shape (who acts, a folded author's session, a record's optional columns). A value whose absence
 * the shape says (a filter, a company, an optional reference) is never null where the shape uses it.
 * A page's bounds are numbers: drizzle writes LIMIT only for a number and OFFSET only for a non-zero
 * one, where a placeholder always writes them (same rows, other SQL).
 */
const NUMBERS = /^(limit|offset|antesSeq|max\d)$/;
const MAY_BE_NULL = new Set([
  'log_ator_id',
  'log_ator_role',
  'log_request_id',
  'author_sid',
  'sid',
  'instituicao',
  'cidade',
  'estado',
  'observacoes',
  'gastosCaptacaoCentavos',
  'pagoEm',
  'estornoDe',
  'contratoId',
  'parcela',
  'conviteId',
  'chaveExterna',
  'sistema',
]);
function valuesFor(params: readonly string[], kind: 's' | 'null') {
  return Object.fromEntries(
    params.map((name, i) => [
      name,
      NUMBERS.test(name) ? 100 + i : kind === 'null' && MAY_BE_NULL.has(name) ? null : `v${i}-${name}`,
    ]),
  );
}

const statementsOf = (b: Statements) =>
  Object.fromEntries(Object.entries(b).map(([name, s]) => [name, { sql: s.sql, params: [...s.params] }]));

describe('a cached batch equals its uncached path', () => {
  it('for every shape the app builds, with text values and with nulls', async () => {
    await buildEveryShape();
    let compared = 0;
    for (const batch of everyCachedBatch() as unknown as AnyBatch[])
      for (const shape of batch.shapes())
        for (const kind of ['s', 'null'] as const) {
          const values = valuesFor(batch.params, kind);
          const cached = statementsOf(batch.bind(db, shape, values));
          const uncached = statementsOf(batch.uncached(db, shape, values));
          expect(cached, `${batch.params.join(',')} ${JSON.stringify(shape)} (${kind})`).toEqual(uncached);
          compared++;
        }
    // Not vacuous: the hot answers for each author check, the creates, the login and the reads.
    expect(compared).toBeGreaterThan(200);
  });

  it('every cached batch of the app is built by buildEveryShape', async () => {
    await buildEveryShape();
    const unbuilt = everyCachedBatch().filter((b) => b.shapes().length === 0);
    expect(unbuilt.map((b) => b.params.join(','))).toEqual([]);
  });

  it('the hot answers bind the values by name, so that a new statement joins them in one place', () => {
    const accept = bindSample(acceptBatch, { author: authorShapes[3] });
    expect(Object.keys(accept)).toEqual(['log', 'update', 'categories', 'fee', 'feeLog', 'notes', 'view']);
    const decline = bindSample(declineBatch, { author: authorShapes[3] });
    expect(Object.keys(decline)).toEqual([
      'log',
      'cancelledFeeLog',
      'cancelledFee',
      'confiabilidadeLedger',
      'confiabilidadeScore',
      'update',
      'notes',
      'promotedLog',
      'promotedUpdate',
      'promotedCategories',
      'promotedFee',
      'promotedFeeLog',
      'promotedNotes',
      'view',
    ]);
  });
});
