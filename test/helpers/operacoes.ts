import { and, eq } from 'drizzle-orm';
import { agenda, convites, funcoes, notifications, tiposEventos } from '../../src/db/schema';
import { db, makeCatalog, makeFot, makeProfissional, makeUser, uniq, type TestUser } from './factories';

/** Event-operations fixtures (call sheets, confirmations, reminders, calendar feeds), straight into D1. */

export const makeFuncao = (regiao = 'SP') => makeCatalog(funcoes, regiao, uniq('Fotógrafo'));

export async function makeEvento(
  regiao: string,
  creator: TestUser | null,
  over: Partial<typeof agenda.$inferInsert> = {},
) {
  const fot = await makeFot(regiao);
  const tipo = await makeCatalog(tiposEventos, regiao);
  const [row] = await db
    .insert(agenda)
    .values({
      regiao,
      userId: creator?.id ?? null,
      fotId: fot.id,
      tipoEventoId: tipo.id,
      dataEvento: '2027-05-10',
      ...over,
    })
    .returning();
  return { ...row!, fot, tipo };
}

/** A professional with a login, holding one function. */
export async function makePro(regiao = 'SP', funcaoId?: string) {
  const funcao = funcaoId ?? (await makeFuncao(regiao)).id;
  const user = await makeUser({ role: 'profissional' });
  const prof = await makeProfissional(regiao, { usuarioId: user.id }, [funcao]);
  return { user, prof, funcaoId: funcao };
}

/** An invitation in the given state, straight into D1. */
export async function makeConvite(
  agendaId: string,
  pro: { prof: { id: string }; funcaoId: string },
  status: 'pendente' | 'aceito' | 'recusado' = 'aceito',
  over: Partial<typeof convites.$inferInsert> = {},
) {
  const [row] = await db
    .insert(convites)
    .values({ agendaId, profissionalId: pro.prof.id, funcaoId: pro.funcaoId, status, ...over })
    .returning();
  return row!;
}

export const notificationsOf = (userId: string, tipo?: string) =>
  db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), tipo ? eq(notifications.tipo, tipo) : undefined));
