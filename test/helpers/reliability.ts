import { eq } from 'drizzle-orm';
import * as schema from '../../src/db/schema';
import type { ConfiabilidadeTipo } from '../../src/db/schema';
import { db, makeConvite, makeEvento, type TestUser } from './factories';

const HOUR = 3_600_000;

/** The São Paulo date and HH:MM `ms` from now (an event starting then). */
export function spAt(ms: number) {
  const sp = new Date(Date.now() + ms - 3 * HOUR).toISOString();
  return { dataEvento: sp.slice(0, 10), horario: sp.slice(11, 16) };
}

/** An event of `regiao` starting `hours` from now (to the minute). */
export const eventIn = (regiao: string, creator: TestUser | null, hours: number) =>
  makeEvento(regiao, creator, spAt(hours * HOUR));

/** An invitation accepted `acceptedHoursAgo` hours ago (respondido_em), straight into D1. */
export const acceptedSince = (
  eventId: string,
  pro: { prof: { id: string }; funcaoId: string },
  acceptedHoursAgo: number,
) =>
  makeConvite(eventId, pro, 'aceito', {
    respondidoEm: new Date(Date.now() - acceptedHoursAgo * HOUR).toISOString(),
  });

export interface LedgerRow {
  tipo: ConfiabilidadeTipo;
  credito: number;
  peso: number;
  /** Days ago (default a minute ago). */
  diasAtras?: number;
  minutos?: number | null;
  abonado?: boolean;
}

/** Ledger rows of a professional straight into D1 (the region's kept sums follow by trigger). */
export async function makeLedger(prof: { id: string; regiao: string }, rows: LedgerRow[], now = new Date()) {
  const values = rows.map((r) => ({
    profissionalId: prof.id,
    regiao: prof.regiao,
    tipo: r.tipo,
    credito: r.credito,
    peso: r.peso,
    minutos: r.minutos ?? null,
    abonado: r.abonado ?? false,
    dataEvento: '2026-01-01',
    ocorridoEm: new Date(now.getTime() - (r.diasAtras ?? 1 / 1440) * 24 * HOUR).toISOString(),
  }));
  const out: schema.ConfiabilidadeEventoRow[] = [];
  for (let i = 0; i < values.length; i += 5)
    out.push(
      ...(await db
        .insert(schema.confiabilidadeEventos)
        .values(values.slice(i, i + 5))
        .returning()),
    );
  return out;
}

/** A professional's ledger rows, oldest first. */
export const ledgerOf = (profId: string) =>
  db
    .select()
    .from(schema.confiabilidadeEventos)
    .where(eq(schema.confiabilidadeEventos.profissionalId, profId))
    .orderBy(schema.confiabilidadeEventos.ocorridoEm);

/** The kept score of a professional: `confiabilidade` and `confiabilidade_peso`. */
export async function keptScore(profId: string) {
  const [row] = await db
    .select({ valor: schema.profissionais.confiabilidade, peso: schema.profissionais.confiabilidadePeso })
    .from(schema.profissionais)
    .where(eq(schema.profissionais.id, profId));
  return row!;
}

/** The region's kept sums, by kind. */
export const regionSums = (regiao: string) =>
  db.select().from(schema.confiabilidadeRegioes).where(eq(schema.confiabilidadeRegioes.regiao, regiao));

/**
 * Pins the region's mean credit m to `m` (a test of the formula needs a known prior, and the
 * professional's own rows move the kept sums): one kind's row holds it, the others hold nothing.
 */
export async function pinRegionMean(regiao: string, m: number) {
  await db
    .update(schema.confiabilidadeRegioes)
    .set({ somaCreditoCent: 0, somaPesoCent: 0 })
    .where(eq(schema.confiabilidadeRegioes.regiao, regiao));
  await db
    .insert(schema.confiabilidadeRegioes)
    .values({ regiao, tipo: 'chegada', somaCreditoCent: Math.round(m * 10_000), somaPesoCent: 10_000 })
    .onConflictDoUpdate({
      target: [schema.confiabilidadeRegioes.regiao, schema.confiabilidadeRegioes.tipo],
      set: { somaCreditoCent: Math.round(m * 10_000), somaPesoCent: 10_000 },
    });
}
