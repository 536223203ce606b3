import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { agenda, agendaLogistica, convites, profissionais, type AgendaLogisticaRow } from '../../db/schema';
import type { Scope } from '../../db/scope';
import { saoPauloDate } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { visible } from '../agenda/agenda';
import { prepareNotifications } from '../core/notifications';
import type { Ctx, QueryCtx } from '../core/context';
import { logStatement, type Change } from '../core/activity-log';
import { prepareWhatsappRows, quandoSql } from '../core/whatsapp';

/**
 * The call sheet of an agenda event (docs/decisions.md#d16). Read: whoever may see the event
 * (services/agenda/agenda.ts `visible`: administrators, its agenda_viewer creator, its invited team, its
 * company's EVENT_OWNERs). Write: administrators and the creator (the route's allowAgenda('update')
 * plus `visible`). `versao` starts at 1 and grows by one per PUT that changes something.
 */

/** Wire name → column key, in the order the answer lists them. */
export const LOGISTICA_FIELDS = {
  horario_chegada: 'horarioChegada',
  ponto_encontro: 'pontoEncontro',
  endereco_encontro: 'enderecoEncontro',
  transporte: 'transporte',
  horario_saida_van: 'horarioSaidaVan',
  estacionamento: 'estacionamento',
  traje: 'traje',
  retirada_equipamento: 'retiradaEquipamento',
  devolucao_equipamento: 'devolucaoEquipamento',
  contato_nome: 'contatoNome',
  contato_telefone: 'contatoTelefone',
  prazo_credenciamento: 'prazoCredenciamento',
  credenciamento_enviado_em: 'credenciamentoEnviadoEm',
  observacoes: 'observacoes',
} as const satisfies Record<string, keyof AgendaLogisticaRow>;

export type LogisticaField = keyof typeof LOGISTICA_FIELDS;
export type LogisticaInput = Partial<Record<LogisticaField, string | null | undefined>>;

const sheetNotFound = () => new ApiError('NOT_FOUND', 'evento não encontrado ou sem ficha de logística');
const eventNotFound = () => new ApiError('NOT_FOUND', 'evento não encontrado');

export const toLogistica = (r: AgendaLogisticaRow) => ({
  agenda_id: r.agendaId,
  horario_chegada: r.horarioChegada,
  ponto_encontro: r.pontoEncontro,
  endereco_encontro: r.enderecoEncontro,
  transporte: r.transporte,
  horario_saida_van: r.horarioSaidaVan,
  estacionamento: r.estacionamento,
  traje: r.traje,
  retirada_equipamento: r.retiradaEquipamento,
  devolucao_equipamento: r.devolucaoEquipamento,
  contato_nome: r.contatoNome,
  contato_telefone: r.contatoTelefone,
  prazo_credenciamento: r.prazoCredenciamento,
  credenciamento_enviado_em: r.credenciamentoEnviadoEm,
  observacoes: r.observacoes,
  versao: r.versao,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

/** The sheet of an event the caller may see (a folded read: one batch with the user check). */
export const logisticaSelect = ({ db, regiao }: QueryCtx, scope: Scope, id: string) =>
  db
    .select({ l: agendaLogistica })
    .from(agendaLogistica)
    .innerJoin(agenda, eq(agenda.id, agendaLogistica.agendaId))
    .where(visible(scope, regiao, eq(agenda.id, id)));

export function oneLogistica(rows: { l: AgendaLogisticaRow }[]) {
  if (!rows[0]) throw sheetNotFound();
  return toLogistica(rows[0].l);
}

/** A concurrent PUT moved the version between our read and our write: read again, at most this often. */
const MAX_ATTEMPTS = 10;

/**
 * Changes the fields sent (absent fields are kept; null clears one). A PUT that changes nothing
 * writes nothing and notifies nobody. The write is guarded by the version it read
 * (`WHERE versao = ?`), so two concurrent changes both land, one after the other (1 → 2 → 3), and
 * neither is lost; the notifications, the WhatsApp messages of the members who opted in
 * (docs/decisions.md#d30: one per version and member) and the log entry stand before the write under
 * the same guard.
 */
export async function putLogistica(ctx: Ctx, id: string, body: LogisticaInput) {
  const { db, push } = ctx;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const [[event], [current], team] = await sheetReads(ctx, id);
    if (!event) throw eventNotFound();
    const { set, campos } = changesOf(current, body);
    if (current && campos.length === 0) return toLogistica(current);

    const { statements, messages, whatsapp } = sheetWrite(ctx, {
      id,
      body,
      current,
      set,
      campos,
      dataEvento: event.dataEvento,
      team,
    });
    const results = await db.batch([
      ...statements,
      db.select().from(agendaLogistica).where(eq(agendaLogistica.agendaId, id)),
    ] as unknown as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    const written = results.at(-2) as { meta: { changes: number } };
    const [row] = results.at(-1) as AgendaLogisticaRow[];
    if (written.meta.changes === 1 && row) {
      push(messages);
      if (whatsapp !== undefined) ctx.whatsapp((results[whatsapp] as { id: string }[]).map((r) => r.id));
      return toLogistica(row);
    }
  }
  throw new ApiError('CONFLICT', 'a ficha de logística mudou várias vezes enquanto era salva: tente de novo');
}

/** One attempt's reads: the event (if the caller may change it), the sheet as it is, the accepted team. */
const sheetReads = ({ db, user, regiao }: Pick<Ctx, 'db' | 'user' | 'regiao'>, id: string) =>
  db.batch([
    db
      .select({ id: agenda.id, dataEvento: agenda.dataEvento })
      .from(agenda)
      .where(visible(user, regiao, eq(agenda.id, id))),
    db.select().from(agendaLogistica).where(eq(agendaLogistica.agendaId, id)),
    db
      .selectDistinct({ userId: profissionais.usuarioId })
      .from(convites)
      .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
      .where(and(eq(convites.agendaId, id), eq(convites.status, 'aceito'))),
  ]);

/** The fields the body changes against the sheet as read (none read: every field sent). */
function changesOf(current: AgendaLogisticaRow | undefined, body: LogisticaInput) {
  const set: Partial<AgendaLogisticaRow> = {};
  const campos: LogisticaField[] = [];
  for (const [wire, key] of Object.entries(LOGISTICA_FIELDS) as [LogisticaField, keyof AgendaLogisticaRow][]) {
    const v = body[wire];
    if (v === undefined) continue;
    if ((current?.[key] ?? null) !== v) {
      campos.push(wire);
      (set as Record<string, unknown>)[key] = v;
    }
  }
  return { set, campos };
}

/** One attempt's change: what it read, and what it changes. */
interface SheetChange {
  id: string;
  body: LogisticaInput;
  current: AgendaLogisticaRow | undefined;
  set: Partial<AgendaLogisticaRow>;
  campos: LogisticaField[];
  dataEvento: string;
  team: { userId: string | null }[];
}

/**
 * The attempt's statements, each guarded by the state it read (the version, or no sheet yet): the
 * log entry, the team's notifications, then the update or insert (its `changes`, next to last).
 */
function sheetWrite(
  { db, log, user, regiao, config }: Pick<Ctx, 'db' | 'log' | 'user' | 'regiao' | 'config'>,
  w: SheetChange,
) {
  const { id, current, campos } = w;
  const now = new Date().toISOString();
  const recipients = w.team.map((t) => t.userId).filter((u): u is string => !!u && u !== user.id);
  const notes = recipients.map((userId) => ({
    userId,
    tipo: 'logistica_alterada' as const,
    titulo: 'Logística do evento alterada',
    mensagem: `A ficha de logística do evento de ${w.dataEvento.split('-').reverse().join('/')} mudou: ${campos.join(', ')}.`,
    dados: { agenda_id: id, campos },
  }));
  // The state this attempt read, checked inside the batch before anything is written.
  const guard = current
    ? sql`exists (select 1 from ${agendaLogistica} where ${agendaLogistica.agendaId} = ${id} and ${agendaLogistica.versao} = ${current.versao})`
    : sql`not exists (select 1 from ${agendaLogistica} where ${agendaLogistica.agendaId} = ${id})`;
  const { insert, push: messages } = prepareNotifications(db, campos.length ? notes : [], { when: guard });
  // The same team on WhatsApp, once per version this change makes (a retry finds no change to make).
  const versao = current ? current.versao + 1 : 1;
  const wa = campos.length ? whatsappChange({ db, config }, { id, versao, guard }) : undefined;
  const entry = logStatement(db, log, {
    acao: current ? 'agenda_logistica.update' : 'agenda_logistica.create',
    entidade: 'agenda_logistica',
    entidadeId: id,
    regiao,
    dados: changeEntry(w),
    // An update's entry reads `antes` from the row it is about to change (same guard).
    ...(current
      ? {
          from: sql`from ${agendaLogistica}`,
          when: and(eq(agendaLogistica.agendaId, id), eq(agendaLogistica.versao, current.versao)),
        }
      : { when: guard }),
  });
  const write: BatchItem<'sqlite'> = current
    ? db
        .update(agendaLogistica)
        .set({ ...w.set, versao: sql`${agendaLogistica.versao} + 1`, updatedAt: now })
        .where(and(eq(agendaLogistica.agendaId, id), eq(agendaLogistica.versao, current.versao)))
    : db
        .insert(agendaLogistica)
        .values({ ...w.set, agendaId: id, versao: 1, createdAt: now, updatedAt: now })
        .onConflictDoNothing();
  const statements = [entry, ...insert, ...(wa ? [wa] : []), write];
  return { statements, messages, whatsapp: wa ? statements.indexOf(wa) : undefined };
}

/**
 * The call-sheet change as WhatsApp messages (docs/decisions.md#d30): to each accepted member who opted
 * in, keyed by the event, the sheet's new version and the professional, under the attempt's guard;
 * only for an event not yet past (São Paulo date). The template's name and the event's date and time.
 */
function whatsappChange({ db, config }: Pick<Ctx, 'db' | 'config'>, c: { id: string; versao: number; guard: SQL }) {
  const now = new Date();
  return prepareWhatsappRows(
    db,
    config,
    {
      tipo: 'logistica_alterada',
      from: sql`from ${convites} join ${agenda} on ${agenda.id} = ${convites.agendaId}
        join ${profissionais} p on p.id = ${convites.profissionalId}`,
      where: sql`${convites.agendaId} = ${c.id} and ${convites.status} = 'aceito'
        and ${agenda.dataEvento} >= ${saoPauloDate(now)} and ${c.guard}`,
      chave: sql`${`logistica_alterada:${c.id}:${c.versao}:`} || ${convites.profissionalId}`,
      profissionalId: sql`${convites.profissionalId}`,
      agendaId: sql`${c.id}`,
      dados: sql`json_object('nome', p.nome, 'quando', ${quandoSql()})`,
    },
    now,
  );
}

/** The entry's `dados`: each field changed (before, when there was a sheet, and after) and the version. */
function changeEntry({ current, campos, body }: SheetChange) {
  const dados: Record<string, Change> = {};
  for (const f of campos) {
    const col = agendaLogistica[LOGISTICA_FIELDS[f]];
    dados[f] = current ? { antes: col, depois: body[f] } : { depois: body[f] };
  }
  dados.versao = current ? { antes: current.versao, depois: current.versao + 1 } : { depois: 1 };
  return dados;
}
