import { desc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tabelasTributarias, type TabelaTributariaRow } from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { writeThenRead } from '../../db/write-read';
import { ApiError } from '../../lib/errors';
import { fromCentavos, toCentavos, type TaxTable } from '../../lib/money';
import { changed, created, logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';

/** Tax tables (docs/decisions.md#d18-finance "Tax"): data maintained by a SUPERADMIN, one per vigencia. */

export interface TabelaBody {
  inss_aliquota: number;
  inss_teto: number;
  irrf_faixas: { ate: number | null; aliquota: number; deducao: number }[];
  iss_aliquota: number;
}

type StoredFaixa = { ate_centavos: number | null; aliquota: number; deducao_centavos: number };

export function toTabelaResponse(r: TabelaTributariaRow) {
  const faixas = JSON.parse(r.irrfFaixas) as StoredFaixa[];
  return {
    vigencia: r.vigencia,
    inss_aliquota: r.inssAliquota,
    inss_teto: fromCentavos(r.inssTetoCentavos),
    irrf_faixas: faixas.map((f) => ({
      ate: f.ate_centavos === null ? null : fromCentavos(f.ate_centavos),
      aliquota: f.aliquota,
      deducao: fromCentavos(f.deducao_centavos),
    })),
    iss_aliquota: r.issAliquota,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/** The row as lib/money.ts withholding() takes it. */
export function toTaxTable(r: TabelaTributariaRow): TaxTable {
  const faixas = JSON.parse(r.irrfFaixas) as StoredFaixa[];
  return {
    inssAliquota: r.inssAliquota,
    inssTetoCentavos: r.inssTetoCentavos,
    irrfFaixas: faixas.map((f) => ({
      ateCentavos: f.ate_centavos,
      aliquota: f.aliquota,
      deducaoCentavos: f.deducao_centavos,
    })),
    issAliquota: r.issAliquota,
  };
}

/** Creates or replaces the table in force from `vigencia`; logged as create or update in the same batch. */
export async function putTabela({ db, log }: Pick<Ctx, 'db' | 'log'>, vigencia: string, b: TabelaBody) {
  const now = nowIso();
  const values = {
    vigencia,
    inssAliquota: b.inss_aliquota,
    inssTetoCentavos: toCentavos(b.inss_teto),
    irrfFaixas: JSON.stringify(
      b.irrf_faixas.map((f) => ({
        ate_centavos: f.ate === null ? null : toCentavos(f.ate),
        aliquota: f.aliquota,
        deducao_centavos: toCentavos(f.deducao),
      })),
    ),
    issAliquota: b.iss_aliquota,
    createdAt: now,
    updatedAt: now,
  };
  const { vigencia: _v, createdAt: _c, ...set } = values;
  const t = tabelasTributarias;
  const [[row]] = await writeThenRead(
    db,
    [
      // An update is logged before the write (antes from the row), a create after it when there was none.
      logStatement(db, log, {
        acao: 'tabelas_tributarias.update',
        entidade: 'tabelas_tributarias',
        // entidade_id is a UUID in the log: the table's key (a date) goes in dados.
        entidadeId: null,
        dados: { vigencia: { antes: t.vigencia }, ...changed(t, set) },
        from: sql`from ${t}`,
        when: eq(t.vigencia, vigencia),
      }),
      logStatement(db, log, {
        acao: 'tabelas_tributarias.create',
        entidade: 'tabelas_tributarias',
        entidadeId: null,
        dados: created(t, values),
        when: sql`not exists (select 1 from ${t} where ${t.vigencia} = ${vigencia})`,
      }),
      db.insert(t).values(values).onConflictDoUpdate({ target: t.vigencia, set }),
    ],
    [db.select().from(t).where(eq(t.vigencia, vigencia))],
  );
  return toTabelaResponse(row!);
}

export async function listTabelas({ db }: Pick<Ctx, 'db'>) {
  const rows = await db.select().from(tabelasTributarias).orderBy(desc(tabelasTributarias.vigencia));
  return rows.map(toTabelaResponse);
}

/** The table in force on `date` (the latest vigencia ≤ date), as a select for a batch. */
export const tabelaEmVigor = (db: Db, date: string) =>
  db
    .select()
    .from(tabelasTributarias)
    .where(lte(tabelasTributarias.vigencia, date))
    .orderBy(desc(tabelasTributarias.vigencia))
    .limit(1);

export const missingTable = (date: string) =>
  new ApiError(
    'INVALID_STATE',
    `nenhuma tabela tributária em vigor em ${date}: cadastre-a em PUT /api/financeiro/tabelas-tributarias/{vigencia}`,
  );
