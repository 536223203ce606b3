import { and, asc, eq, sql } from 'drizzle-orm';
import { agenda, convites, faltas, funcoes, presencas, profissionais, type PresencaRow } from '../../db/schema';
import type { Ctx } from '../core/context';
import { visible } from '../agenda/agenda';
import { toFalta } from './faltas';
import { eventNotFound, eventoCheckinOf, isStaff } from './evento';
import { toPresenca } from './presencas';

/**
 * The attendance list of an event (docs/decisions.md#d27): its accepted team, each with arrival,
 * departure, `atraso_min`, `situacao` and any no-show. Staff (administrators, the creator, the
 * coordinator) see it all; the company's EVENT_OWNER (an event it may see) names and arrived or not only.
 * One round trip: the event, the team, its presences and no-shows.
 */
export async function listaPresencas(ctx: Ctx, id: string) {
  const { db, user, regiao } = ctx;
  const [evs, owned, team, rows, absent] = await db.batch([
    eventoCheckinOf(db, regiao, id),
    db
      .select({ id: agenda.id })
      .from(agenda)
      .where(visible(user, regiao, eq(agenda.id, id))),
    db
      .select({
        conviteId: convites.id,
        profissionalId: convites.profissionalId,
        nome: profissionais.nome,
        avatarUrl: profissionais.avatarUrl,
        funcaoId: convites.funcaoId,
        funcaoNome: sql<string>`${funcoes.label}`.as('funcao_nome'),
      })
      .from(convites)
      .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
      .innerJoin(funcoes, eq(funcoes.id, convites.funcaoId))
      .where(and(eq(convites.agendaId, id), eq(convites.status, 'aceito')))
      .orderBy(asc(funcoes.label), asc(profissionais.nome), asc(convites.id)),
    db.select().from(presencas).where(eq(presencas.agendaId, id)),
    db.select().from(faltas).where(eq(faltas.agendaId, id)),
  ]);
  const ev = evs[0];
  if (!ev) throw eventNotFound();
  const staff = isStaff(user, ev);
  if (!staff && !(user.role === 'EVENT_OWNER' && owned[0])) throw eventNotFound();
  const of = (conviteId: string, tipo: string) =>
    rows.find((r: PresencaRow) => r.conviteId === conviteId && r.tipo === tipo);
  const arrived = (conviteId: string) => {
    const e = of(conviteId, 'entrada');
    return Boolean(e && e.situacao !== 'invalida');
  };
  if (!staff) return team.map((t) => ({ nome: t.nome, funcao_nome: t.funcaoNome, chegou: arrived(t.conviteId) }));
  return team.map((t) => {
    const entrada = of(t.conviteId, 'entrada');
    const saida = of(t.conviteId, 'saida');
    const falta = absent.find((f) => f.conviteId === t.conviteId);
    return {
      convite_id: t.conviteId,
      profissional_id: t.profissionalId,
      nome: t.nome,
      avatar_url: t.avatarUrl,
      funcao_id: t.funcaoId,
      funcao_nome: t.funcaoNome,
      coordenador: ev.coordenadorConviteId === t.conviteId,
      chegou: arrived(t.conviteId),
      entrada: entrada ? toPresenca(entrada) : null,
      saida: saida ? toPresenca(saida) : null,
      atraso_min: entrada?.atrasoMin ?? null,
      situacao:
        entrada?.situacao === 'revisar' || saida?.situacao === 'revisar' ? 'revisar' : (entrada?.situacao ?? null),
      falta: falta ? toFalta(falta) : null,
    };
  });
}
