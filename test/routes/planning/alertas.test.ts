/**
 * The weekly `capacidade_deficit` job (docs/decisions.md#d26): the region's administrators hear of
 * each (date, function) in deficit once per week, whatever the number or overlap of runs. Its clock
 * is chosen (2042), so the week is the test's own.
 */
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agendaEquipe, capacidadeAlertas } from '../../../src/db/schema';
import { capacidadeDeficitJob } from '../../../src/scheduled/capacidade';
import { jobs } from '../../../src/scheduled/index';
import {
  db,
  makeEvento,
  makeFuncao,
  makeProfissional,
  makeRegionAdmin,
  makeUser,
  notificationsOf,
  uniq,
} from '../../helpers/factories';
import { keptColumnsAfterAll } from '../../helpers/kept-columns';

/** Monday 2042-03-03, 09:00 in São Paulo. */
const MONDAY = new Date('2042-03-03T12:00:00.000Z');
const days = (n: number) => new Date(MONDAY.getTime() + n * 86_400_000);

async function deficitOn(data: string, need: number) {
  const f = await makeFuncao('SP', uniq('Garçom'));
  await makeProfissional('SP', {}, [f.id]);
  const e = await makeEvento('SP', null, { dataEvento: data, horario: '19:00', horarioFim: '23:00' });
  await db.insert(agendaEquipe).values({ agendaId: e.id, funcaoId: f.id, quantidade: need });
  return f;
}

const alertsOf = (funcaoId: string) =>
  db.select().from(capacidadeAlertas).where(eq(capacidadeAlertas.funcaoId, funcaoId));

keptColumnsAfterAll();
describe('capacidade_deficit', () => {
  it('is in the dispatcher', () => {
    expect(jobs['capacidade-deficit']).toBe(capacidadeDeficitJob);
  });

  it("notifies the region's administrators once per (date, function, week) over three runs", async () => {
    const admin = await makeRegionAdmin('SP');
    const other = await makeRegionAdmin('MG');
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const f = await deficitOn('2042-03-10', 3);

    for (let i = 0; i < 3; i++) await capacidadeDeficitJob(env, MONDAY);
    const notes = await notificationsOf(admin.id, 'capacidade_deficit');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.titulo).toBe('Déficit de equipe previsto');
    expect(notes[0]!.mensagem).toMatch(/10\/03 .* \(faltam 2\)/);
    const dados = notes[0]!.dados as { regiao: string; semana: string; alertas: unknown[] };
    expect(dados).toMatchObject({ regiao: 'SP', semana: '2042-03-03' });
    expect(dados.alertas).toContainEqual({ data: '2042-03-10', funcao_id: f.id, deficit: 2 });
    expect(await alertsOf(f.id)).toHaveLength(1);
    // Another region's administrator and other roles hear nothing of SP.
    expect(
      (await notificationsOf(other.id, 'capacidade_deficit')).filter((n) => JSON.stringify(n.dados).includes(f.id)),
    ).toHaveLength(0);
    expect(await notificationsOf(viewer.id, 'capacidade_deficit')).toHaveLength(0);

    // Later the same week: nothing again. The next week, still in deficit: once more.
    await capacidadeDeficitJob(env, days(4));
    expect(await notificationsOf(admin.id, 'capacidade_deficit')).toHaveLength(1);
    await capacidadeDeficitJob(env, days(7));
    await capacidadeDeficitJob(env, days(8));
    expect(await notificationsOf(admin.id, 'capacidade_deficit')).toHaveLength(2);
    expect(await alertsOf(f.id)).toHaveLength(2);
  });

  it('three overlapping runs of a new week notify once', async () => {
    const admin = await makeRegionAdmin('SP');
    const f = await deficitOn('2042-03-27', 2);
    const week = days(21);
    await Promise.all([
      capacidadeDeficitJob(env, week),
      capacidadeDeficitJob(env, week),
      capacidadeDeficitJob(env, week),
    ]);
    // The administrator was made after the other test's runs: every notice it has is this week's.
    const notes = await notificationsOf(admin.id, 'capacidade_deficit');
    expect(notes).toHaveLength(1);
    expect(JSON.stringify(notes[0]!.dados)).toContain(f.id);
    expect(
      await db
        .select()
        .from(capacidadeAlertas)
        .where(and(eq(capacidadeAlertas.funcaoId, f.id), eq(capacidadeAlertas.semana, '2042-03-24'))),
    ).toHaveLength(1);
  });
});
