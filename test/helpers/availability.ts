import { saoPauloDate } from '../../src/lib/dates';
import { makeConvite, makeEvento, type TestUser } from './factories';

/** The São Paulo date `n` days from today. */
export const day = (n = 0) => saoPauloDate(new Date(), n);

/** An event on `dataEvento`, with its hours (D11 windows). */
export const eventOn = (
  regiao: string,
  creator: TestUser,
  dataEvento: string,
  horas: { horario?: string; horario_fim?: string } = {},
) => makeEvento(regiao, creator, { dataEvento, horario: horas.horario ?? null, horarioFim: horas.horario_fim ?? null });

/** An accepted invitation straight into D1. */
export const acceptedOn = (eventId: string, profId: string, funcaoId: string) =>
  makeConvite(eventId, { prof: { id: profId }, funcaoId }, 'aceito');
