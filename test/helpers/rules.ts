import { instituicoes } from '../../src/db/schema';
import { nameKey } from '../../src/lib/names';
import { db, uniq } from './factories';

/** Florianópolis (SC), the city of the guide's UFSC example (docs/guide/rules.md). */
export const FLORIANOPOLIS = 4205407;

/** An institution straight into D1 (in Florianópolis unless `over` says). */
export async function makeInstituicao(regiao = 'SP', over: Partial<typeof instituicoes.$inferInsert> = {}) {
  const label = uniq('Universidade');
  const [row] = await db
    .insert(instituicoes)
    .values({ regiao, label, labelKey: nameKey(label), sigla: 'UFSC', cidadeIbge: FLORIANOPOLIS, ...over })
    .returning();
  return row!;
}
