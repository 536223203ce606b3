import { agenda, convites, funcoes, tiposEventos } from '../../src/db/schema';
import { saoPauloDate } from '../../src/lib/dates';
import { db, makeCatalog, makeFot, makeProfissional, makeUser, uniq, type TestUser } from './factories';

/** The São Paulo date `n` days from today. */
export const day = (n = 0) => saoPauloDate(new Date(), n);

export const makeFuncao = (regiao = 'SP', nome = uniq('Fotógrafo')) => makeCatalog(funcoes, regiao, nome);

/** A professional with a login (role profissional), holding the given functions. */
export async function makePro(regiao: string, funcaoIds: string[]) {
  const user = await makeUser({ role: 'profissional' });
  const prof = await makeProfissional(regiao, { usuarioId: user.id }, funcaoIds);
  return { user, prof };
}

/** An agenda event straight into D1. */
export async function makeEvento(
  regiao: string,
  creator: TestUser,
  dataEvento: string,
  horas: { horario?: string; horario_fim?: string } = {},
) {
  const fot = await makeFot(regiao);
  const tipo = await makeCatalog(tiposEventos, regiao);
  const [row] = await db
    .insert(agenda)
    .values({
      regiao,
      userId: creator.id,
      fotId: fot.id,
      tipoEventoId: tipo.id,
      dataEvento,
      horario: horas.horario ?? null,
      horarioFim: horas.horario_fim ?? null,
    })
    .returning();
  return row!;
}

/** An accepted invitation straight into D1. */
export async function acceptedOn(eventId: string, profId: string, funcaoId: string) {
  await db.insert(convites).values({ agendaId: eventId, profissionalId: profId, funcaoId, status: 'aceito' });
}
