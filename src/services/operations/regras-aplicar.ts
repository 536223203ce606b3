import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { insertWhere } from '../../db/guarded';
import {
  agenda,
  agendaEquipe,
  agendaLogistica,
  lancamentos,
  regrasAplicacoes,
  systemKey,
  type RegraRecurso,
} from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { ApiError } from '../../lib/errors';
import { fromCentavos } from '../../lib/money';
import { sha256Hex } from '../../lib/tokens';
import { logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { ensureSystemCategories, entryValues } from '../money/financeiro';
import type { Avaliacao } from '../rules/avaliacao';
import { avaliarEvento, eventoRegrasSelects, type EventoFatos, type EventoRegrasRows } from '../rules/evento';
import { avaliacaoWire } from '../rules/validar';

/**
 * POST /api/agenda/{id}/regras/aplicar (docs/decisions.md#d25): what the rules in force say for the
 * event becomes its team quotas, its `qtd_*` resources, its call sheet's `prazo_credenciamento` and
 * one `previsto` expense per fee (system category `Taxa de instituição`), in ONE batch.
 *
 * Exactly once per (caller, Idempotency-Key): the batch's first statement claims the key
 * (`regras_aplicacoes`, unique, ON CONFLICT DO NOTHING) and every other statement is guarded by that
 * claim, so of N racing requests one writes and the others answer its stored result. The same key
 * for another event is 409 IDEMPOTENCY_MISMATCH. A fee is written once per (event, description)
 * whatever the keys (`chave_externa` `taxa:<event>:<fee>`): applying again after a change updates
 * quotas, resources and the deadline but leaves the fees the finance page already holds.
 */

export interface Aplicacao {
  aplicacao_id: string;
  agenda_id: string;
  quotas: { funcao_id: string; quantidade: number }[];
  recursos: Partial<Record<RegraRecurso, number>>;
  prazo_credenciamento: string | null;
  lancamentos: { chave: string; descricao: string; valor: number; vencimento: string }[];
  avaliacao: ReturnType<typeof avaliacaoWire>;
}

const RECURSO_KEYS = {
  qtd_estudios: 'qtdEstudios',
  qtd_pontos_led: 'qtdPontosLed',
  qtd_plataforma_360: 'qtdPlataforma360',
  qtd_ponto_foto: 'qtdPontoFoto',
} as const;

/** A fee's key in the finance entries: one per event and fee description (db/schema/financeiro.ts SYSTEM_KEY_PREFIXES). */
const feeKey = (agendaId: string, descricao: string) =>
  systemKey(
    'taxa:',
    `${agendaId}:${descricao.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').slice(0, 80)}`,
  );

/** What the application writes, from the evaluation. */
function plano(fatos: EventoFatos, a: Avaliacao, aplicacaoId: string): Omit<Aplicacao, 'avaliacao'> {
  const prazo = a.prazos.find((p) => p.tipo === 'credenciamento')?.data_limite ?? null;
  const recursos: Partial<Record<RegraRecurso, number>> = {};
  for (const q of a.quotas_sugeridas) if (q.recurso) recursos[q.recurso] = q.quantidade;
  return {
    aplicacao_id: aplicacaoId,
    agenda_id: fatos.id,
    quotas: a.quotas_sugeridas
      .filter((q) => q.funcao_id)
      .map((q) => ({ funcao_id: q.funcao_id!, quantidade: q.quantidade })),
    recursos,
    prazo_credenciamento: prazo,
    lancamentos: a.taxas
      .filter((t) => t.total_centavos > 0)
      .map((t) => ({
        chave: feeKey(fatos.id, t.descricao),
        descricao: `${t.descricao} (${t.quantidade > 1 ? `${t.quantidade} × ` : ''}regra ${a.regras.find((r) => r.id === t.regra_id)?.nome ?? ''})`,
        valor: fromCentavos(t.total_centavos),
        // Paid with the credential list: due on its deadline, else on the event's day.
        vencimento: prazo ?? fatos.dataEvento,
      })),
  };
}

export async function aplicarRegras(ctx: Ctx, id: string, key: string) {
  const { db, user, regiao } = ctx;
  const hash = await sha256Hex(JSON.stringify([regiao, id]));
  const mine = and(eq(regrasAplicacoes.criadoPor, user.id), eq(regrasAplicacoes.idempotencyKey, key));
  const [prior, ...reads] = await db.batch([
    db.select().from(regrasAplicacoes).where(mine),
    ...eventoRegrasSelects(ctx, user, id),
  ]);
  if (prior[0]) return repeated(prior[0], hash);
  const { fatos, avaliacao } = avaliarEvento(reads as unknown as EventoRegrasRows);
  const aplicacaoId = crypto.randomUUID();
  const p = plano(fatos, avaliacao, aplicacaoId);
  const resultado: Aplicacao = { ...p, avaliacao: avaliacaoWire(avaliacao) };
  const now = nowIso();
  const claimed = sql`exists (select 1 from ${regrasAplicacoes} where ${regrasAplicacoes.id} = ${aplicacaoId})`;
  const results = await db.batch([
    db
      .insert(regrasAplicacoes)
      .values({
        id: aplicacaoId,
        agendaId: id,
        criadoPor: user.id,
        idempotencyKey: key,
        requestHash: hash,
        resultado: JSON.stringify(resultado),
        createdAt: now,
      })
      .onConflictDoNothing(),
    ...effects(ctx, { fatos, plano: p, claimed, now }),
    db.select().from(regrasAplicacoes).where(mine),
  ] as unknown as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  const [row] = results.at(-1) as (typeof regrasAplicacoes.$inferSelect)[];
  if (!row) throw new ApiError('CONFLICT', 'a aplicação não foi registrada: tente de novo');
  if (row.id !== aplicacaoId) return repeated(row, hash);
  return { created: true, aplicacao: resultado };
}

function repeated(row: typeof regrasAplicacoes.$inferSelect, hash: string) {
  if (row.requestHash !== hash)
    throw new ApiError(
      'IDEMPOTENCY_MISMATCH',
      'esta Idempotency-Key já foi usada para aplicar as regras de outro evento: use uma chave nova',
    );
  return { created: false, aplicacao: JSON.parse(row.resultado) as Aplicacao };
}

/** Every write of the application, each guarded by the key's claim (written only by the request that claimed it). */
function effects(
  { db, log, regiao }: Pick<Ctx, 'db' | 'log' | 'regiao'>,
  o: { fatos: EventoFatos; plano: Omit<Aplicacao, 'avaliacao'>; claimed: SQL; now: string },
) {
  const { fatos, plano: p, claimed, now } = o;
  const out: BatchItem<'sqlite'>[] = [
    logStatement(db, log, {
      acao: 'agenda.regras_aplicar',
      entidade: 'agenda',
      entidadeId: fatos.id,
      regiao,
      dados: {
        aplicacao_id: { depois: p.aplicacao_id },
        equipe: { depois: p.quotas },
        recursos: { depois: p.recursos },
        prazo_credenciamento: { depois: p.prazo_credenciamento },
        lancamentos: { depois: p.lancamentos.map((l) => ({ descricao: l.descricao, valor: l.valor })) },
      },
      when: claimed,
    }),
  ];
  // Team quotas: the suggested number per function; a function's other settings (publicar, ...) stay.
  for (const q of p.quotas)
    out.push(
      insertWhere(
        db,
        agendaEquipe,
        { agendaId: fatos.id, funcaoId: q.funcao_id, quantidade: q.quantidade, createdAt: now, updatedAt: now },
        claimed,
      ).onConflictDoUpdate({
        target: [agendaEquipe.agendaId, agendaEquipe.funcaoId],
        set: { quantidade: sql`excluded.${sql.identifier('quantidade')}`, updatedAt: now },
      }),
    );
  const recursos = Object.entries(p.recursos) as [RegraRecurso, number][];
  if (recursos.length)
    out.push(
      db
        .update(agenda)
        .set({ ...Object.fromEntries(recursos.map(([r, n]) => [RECURSO_KEYS[r], n])), updatedAt: now })
        .where(and(eq(agenda.id, fatos.id), claimed)),
    );
  if (p.prazo_credenciamento)
    out.push(
      insertWhere(
        db,
        agendaLogistica,
        { agendaId: fatos.id, prazoCredenciamento: p.prazo_credenciamento, versao: 1, createdAt: now, updatedAt: now },
        claimed,
      ).onConflictDoUpdate({
        target: agendaLogistica.agendaId,
        set: {
          prazoCredenciamento: sql`excluded.${sql.identifier('prazo_credenciamento')}`,
          versao: sql`${agendaLogistica.versao} + 1`,
          updatedAt: now,
        },
        setWhere: sql`${agendaLogistica.prazoCredenciamento} is not excluded.${sql.identifier('prazo_credenciamento')}`,
      }),
    );
  if (p.lancamentos.length) out.push(ensureSystemCategories(db, regiao, now));
  for (const l of p.lancamentos) {
    const values = entryValues({
      regiao,
      tipo: 'despesa',
      categoria: { sistema: 'taxa_instituicao' },
      descricao: l.descricao,
      valorCentavos: Math.round(l.valor * 100),
      vencimento: l.vencimento,
      origem: 'regra',
      fotId: fatos.fotId,
      agendaId: fatos.id,
      chaveExterna: l.chave,
    });
    out.push(
      insertWhere(db, lancamentos, values as typeof lancamentos.$inferInsert, claimed).onConflictDoNothing(),
      logStatement(db, log, {
        acao: 'lancamentos.create',
        entidade: 'lancamentos',
        entidadeId: values.id,
        regiao,
        dados: {
          tipo: { depois: 'despesa' },
          descricao: { depois: l.descricao },
          valor_centavos: { depois: values.valorCentavos },
          vencimento: { depois: l.vencimento },
          agenda_id: { depois: fatos.id },
          chave_externa: { depois: l.chave },
        },
        when: sql`exists (select 1 from ${lancamentos} where ${lancamentos.id} = ${values.id})`,
      }),
    );
  }
  return out;
}
