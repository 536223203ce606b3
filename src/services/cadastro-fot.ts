import { eq, sql } from 'drizzle-orm';
import { anosFormaturas, cadastroFot, cursos, empresas, type CadastroFotRow } from '../db/schema';
import type { Db } from '../env';
import { fromCentavos, toCentavos } from '../lib/money';
import type { FotInput } from '../routes/cadastro-fot/cadastro-fot.schemas';

/**
 * FOT records with the names of their company, course and graduation year: one query. Joined
 * names are aliased: inside db.batch() D1 returns rows keyed by column name, so two `nome`
 * columns would overwrite each other.
 */
export const selectFots = (db: Db) =>
  db
    .select({
      fot: cadastroFot,
      empresaNome: sql<string>`${empresas.label}`.as('empresa_nome'),
      cursoNome: sql<string>`${cursos.label}`.as('curso_nome'),
      anoLabel: sql<string>`${anosFormaturas.label}`.as('ano_formatura_label'),
    })
    .from(cadastroFot)
    .innerJoin(empresas, eq(empresas.id, cadastroFot.empresaId))
    .innerJoin(cursos, eq(cursos.id, cadastroFot.cursoId))
    .innerJoin(anosFormaturas, eq(anosFormaturas.id, cadastroFot.anoFormaturaId));

export type FotView = { fot: CadastroFotRow; empresaNome: string; cursoNome: string; anoLabel: string };

export function toFotResponse({ fot: f, empresaNome, cursoNome, anoLabel }: FotView) {
  return {
    id: f.id,
    fot: f.fot,
    regiao: f.regiao,
    empresa_id: f.empresaId,
    empresa_nome: empresaNome,
    curso_id: f.cursoId,
    curso_nome: cursoNome,
    ano_formatura_id: f.anoFormaturaId,
    ano_formatura_label: anoLabel,
    instituicao: f.instituicao,
    cidade: f.cidade,
    estado: f.estado,
    observacoes: f.observacoes,
    gastos_captacao: f.gastosCaptacaoCentavos === null ? null : fromCentavos(f.gastosCaptacaoCentavos),
    pre_venda: f.preVenda,
    created_at: f.createdAt,
    updated_at: f.updatedAt,
  };
}

/** Wire fields → columns, only for the fields present (PUT changes what it carries). */
export function fotColumns(b: FotInput): Partial<typeof cadastroFot.$inferInsert> {
  const out: Partial<typeof cadastroFot.$inferInsert> = {};
  if (b.fot !== undefined) out.fot = b.fot;
  if (b.empresa_id !== undefined) out.empresaId = b.empresa_id;
  if (b.curso_id !== undefined) out.cursoId = b.curso_id;
  if (b.ano_formatura_id !== undefined) out.anoFormaturaId = b.ano_formatura_id;
  if (b.instituicao !== undefined) out.instituicao = b.instituicao;
  if (b.cidade !== undefined) out.cidade = b.cidade;
  if (b.estado !== undefined) out.estado = b.estado;
  if (b.observacoes !== undefined) out.observacoes = b.observacoes;
  if (b.gastos_captacao !== undefined)
    out.gastosCaptacaoCentavos = b.gastos_captacao === null ? null : toCentavos(b.gastos_captacao);
  if (b.pre_venda !== undefined) out.preVenda = b.pre_venda ?? false;
  return out;
}

export const fotRefs = (b: FotInput) => [
  { field: 'empresa_id', table: empresas, id: b.empresa_id },
  { field: 'curso_id', table: cursos, id: b.curso_id },
  { field: 'ano_formatura_id', table: anosFormaturas, id: b.ano_formatura_id },
];
