import { and, asc, eq, gte, isNull, lte, or } from 'drizzle-orm';
import { writeThenRead } from '../../db/write-read';
import { funcoes, instituicoes, regras, tiposEventos, type RegraEscopo, type RegraRow } from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { ApiError } from '../../lib/errors';
import { fromCentavos, toCentavos } from '../../lib/money';
import { created, loggedDelete, loggedUpdate, logStatement } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';
import { assertRefsInRegion, type Ref } from '../core/references';
import type { Definicao, Quota, Prazo, Regra } from './avaliacao';
import type { Documento } from '../../db/schema';

/**
 * The rules of the company and of institutions (docs/decisions.md#d25): administrators of a region
 * write them; versions are rules of the same (scope, institution, event type) with later
 * `vigencia_inicio` (services/rules/avaliacao.ts picks the one in force on an event's date).
 */

/** `definicao` as the wire carries it: fees in reais. */
export interface DefinicaoWire {
  quotas: Quota[];
  prazos: Prazo[];
  taxas: { descricao: string; por: 'evento' | 'profissional' | 'estudio'; valor: number }[];
  documentos: Documento[];
}

export interface RegraInput {
  nome: string;
  escopo: RegraEscopo;
  instituicao_id?: string | null;
  tipo_evento_id?: string | null;
  fonte_url?: string | null;
  vigencia_inicio: string;
  vigencia_fim?: string | null;
  definicao: DefinicaoWire;
}

export interface RegraFilters {
  escopo?: RegraEscopo;
  instituicao_id?: string;
  tipo_evento_id?: string;
  /** Only the rules whose vigencia holds on this day. */
  vigente_em?: string;
}

export const toStored = (d: DefinicaoWire): Definicao => ({
  quotas: d.quotas,
  prazos: d.prazos,
  taxas: d.taxas.map(({ valor, ...t }) => ({ ...t, valor_centavos: toCentavos(valor) })),
  documentos: d.documentos,
});

const toWire = (d: Definicao): DefinicaoWire => ({
  quotas: d.quotas,
  prazos: d.prazos,
  taxas: d.taxas.map(({ valor_centavos, ...t }) => ({ ...t, valor: fromCentavos(valor_centavos) })),
  documentos: d.documentos,
});

export function toRegraResponse(r: RegraRow) {
  return {
    id: r.id,
    regiao: r.regiao,
    nome: r.nome,
    escopo: r.escopo,
    instituicao_id: r.instituicaoId,
    tipo_evento_id: r.tipoEventoId,
    fonte_url: r.fonteUrl,
    vigencia_inicio: r.vigenciaInicio,
    vigencia_fim: r.vigenciaFim,
    definicao: toWire(JSON.parse(r.definicao) as Definicao),
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/** A stored rule as the evaluation takes it, its functions' names given. */
export const toRegra = (r: RegraRow, nomes: Readonly<Record<string, string>> = {}): Regra => ({
  id: r.id,
  nome: r.nome,
  escopo: r.escopo,
  instituicao_id: r.instituicaoId,
  tipo_evento_id: r.tipoEventoId,
  vigencia_inicio: r.vigenciaInicio,
  vigencia_fim: r.vigenciaFim,
  definicao: JSON.parse(r.definicao) as Definicao,
  funcoes: nomes,
});

const notFound = () => new ApiError('NOT_FOUND', 'regra não encontrada');

/** The region's rules, by filters, oldest version first within a name. */
export const regrasSelect = ({ db, regiao }: QueryCtx, f: RegraFilters = {}) =>
  db
    .select()
    .from(regras)
    .where(
      and(
        eq(regras.regiao, regiao),
        f.escopo ? eq(regras.escopo, f.escopo) : undefined,
        f.instituicao_id ? eq(regras.instituicaoId, f.instituicao_id) : undefined,
        f.tipo_evento_id ? eq(regras.tipoEventoId, f.tipo_evento_id) : undefined,
        f.vigente_em
          ? and(
              lte(regras.vigenciaInicio, f.vigente_em),
              or(isNull(regras.vigenciaFim), gte(regras.vigenciaFim, f.vigente_em)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(regras.nome), asc(regras.vigenciaInicio), asc(regras.id));

export const regraSelect = ({ db, regiao }: QueryCtx, id: string) =>
  db
    .select()
    .from(regras)
    .where(and(eq(regras.id, id), eq(regras.regiao, regiao)));

export function oneRegra(rows: RegraRow[]) {
  if (!rows[0]) throw notFound();
  return toRegraResponse(rows[0]);
}

/** The ids the rule references, each checked in the caller's region (404 naming the field). */
export const regraRefs = (b: RegraInput): Ref[] => [
  { field: 'instituicao_id', table: instituicoes, id: b.instituicao_id },
  { field: 'tipo_evento_id', table: tiposEventos, id: b.tipo_evento_id },
  ...b.definicao.quotas.map((q, i) => ({ field: `definicao.quotas.${i}.funcao_id`, table: funcoes, id: q.funcao_id })),
];

const rowValues = (b: RegraInput) => ({
  nome: b.nome,
  escopo: b.escopo,
  instituicaoId: b.instituicao_id ?? null,
  tipoEventoId: b.tipo_evento_id ?? null,
  fonteUrl: b.fonte_url ?? null,
  vigenciaInicio: b.vigencia_inicio,
  vigenciaFim: b.vigencia_fim ?? null,
  definicao: JSON.stringify(toStored(b.definicao)),
});

export async function createRegra(ctx: Ctx, body: RegraInput) {
  const { db, log, regiao } = ctx;
  await assertRefsInRegion(ctx, regraRefs(body));
  const now = nowIso();
  const values = { ...rowValues(body), id: crypto.randomUUID(), regiao, createdAt: now, updatedAt: now };
  const entry = logStatement(db, log, {
    acao: 'regras.create',
    entidade: 'regras',
    entidadeId: values.id,
    regiao,
    dados: created(regras, values),
  });
  const [rows] = await writeThenRead(db, [db.insert(regras).values(values), entry], [regraSelect(ctx, values.id)]);
  return oneRegra(rows);
}

/** Replaces the rule (a PUT: every field). A new version is a new rule with a later vigencia_inicio. */
export async function updateRegra(ctx: Ctx, id: string, body: RegraInput) {
  const { db, log, regiao } = ctx;
  await assertRefsInRegion(ctx, regraRefs(body));
  const where = and(eq(regras.id, id), eq(regras.regiao, regiao));
  const set = { ...rowValues(body), updatedAt: nowIso() };
  const [entry, update] = loggedUpdate(
    { db, log },
    { table: regras, where, set },
    { acao: 'regras.update', entidade: 'regras', regiao },
  );
  const [rows] = await writeThenRead(db, [entry, update], [regraSelect(ctx, id)]);
  return oneRegra(rows);
}

export async function deleteRegra(ctx: Ctx, id: string) {
  const { db, log, regiao } = ctx;
  const where = and(eq(regras.id, id), eq(regras.regiao, regiao));
  const [entry, remove] = loggedDelete(
    { db, log },
    { table: regras, where },
    { acao: 'regras.delete', entidade: 'regras', regiao },
  );
  const [gone] = await writeThenRead(db, [entry], [remove]);
  if (gone.meta.changes === 0) throw notFound();
}
