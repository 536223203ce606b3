import { and, asc, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { pageBounds } from '../lib/pagination';
import { funcoes, profissionais, profissionalFuncoes, type ProfissionalRow } from '../db/schema';
import type { Db } from '../env';

/** Mean of the ratings that are set, 2 decimals; null when none is. Always computed, never stored. */
export function media(p: Pick<ProfissionalRow, 'qualTec' | 'educacaoSimpatia' | 'desempenhoEvento' | 'dispHorario'>) {
  const set = [p.qualTec, p.educacaoSimpatia, p.desempenhoEvento, p.dispHorario].filter((v): v is number => v !== null);
  if (set.length === 0) return null;
  return Math.round((set.reduce((a, b) => a + b, 0) / set.length) * 100) / 100;
}

export function toProfissionalResponse(
  p: ProfissionalRow,
  opts: { funcaoNome: string | null; funcoes?: { id: string; nome: string }[]; showPrivate: boolean },
) {
  const privateFields = opts.showPrivate
    ? {
        banco: p.banco,
        agencia: p.agencia,
        conta_pix: p.contaPix,
        cpf_cnpj_titular: p.cpfCnpjTitular,
        tipo_cartao: p.tipoCartao,
      }
    : {};
  return {
    id: p.id,
    usuario_id: p.usuarioId,
    regiao: p.regiao,
    email: p.email,
    nome: p.nome,
    funcao_profissional_id: p.funcaoProfissionalId,
    funcao_profissional: opts.funcaoNome,
    ...(opts.funcoes ? { funcoes: opts.funcoes } : {}),
    whatsapp: p.whatsapp,
    endereco: p.endereco,
    cidade: p.cidade,
    uf: p.uf,
    ...privateFields,
    tabela_free: p.tabelaFree,
    equipamentos: p.equipamentos,
    observacao: p.observacao,
    carro_disponivel: p.carroDisponivel,
    tem_estudio: p.temEstudio,
    qtd_estudio: p.qtdEstudio,
    extra_por_equipamento: p.extraPorEquipamento,
    qual_tec: p.qualTec,
    educacao_simpatia: p.educacaoSimpatia,
    desempenho_evento: p.desempenhoEvento,
    disp_horario: p.dispHorario,
    media: media(p),
    avatar_url: p.avatarUrl,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

const wireToColumn = {
  nome: 'nome',
  whatsapp: 'whatsapp',
  endereco: 'endereco',
  cidade: 'cidade',
  uf: 'uf',
  banco: 'banco',
  agencia: 'agencia',
  conta_pix: 'contaPix',
  cpf_cnpj_titular: 'cpfCnpjTitular',
  tipo_cartao: 'tipoCartao',
  tabela_free: 'tabelaFree',
  equipamentos: 'equipamentos',
  observacao: 'observacao',
  carro_disponivel: 'carroDisponivel',
  tem_estudio: 'temEstudio',
  qtd_estudio: 'qtdEstudio',
  extra_por_equipamento: 'extraPorEquipamento',
  avatar_url: 'avatarUrl',
  funcao_profissional_id: 'funcaoProfissionalId',
  qual_tec: 'qualTec',
  educacao_simpatia: 'educacaoSimpatia',
  desempenho_evento: 'desempenhoEvento',
  disp_horario: 'dispHorario',
  email: 'email',
} as const satisfies Record<string, keyof ProfissionalRow>;

/** Wire fields → columns, for the fields present only (a PUT changes what it carries). */
export function profissionalColumns(b: Record<string, unknown>): Partial<ProfissionalRow> {
  const out: Record<string, unknown> = {};
  for (const [wire, col] of Object.entries(wireToColumn)) if (b[wire] !== undefined) out[col] = b[wire];
  return out as Partial<ProfissionalRow>;
}

/**
 * The two queries behind a profile view: profiles with the main function's name, and every
 * function they hold (of the page's profiles only, through a subquery when paged).
 */
export function profissionaisQueries(
  db: Db,
  where: SQL,
  paging?: { limit: number | Placeholder; offset: number | Placeholder },
) {
  const { limit, offset } = paging ?? pageBounds({});
  const order = [asc(profissionais.nome), asc(profissionais.id)];
  const heldWhere = paging
    ? inArray(
        profissionais.id,
        db
          .select({ id: profissionais.id })
          .from(profissionais)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
      )
    : where;
  return [
    db
      .select({ p: profissionais, funcaoNome: sql<string | null>`${funcoes.label}`.as('funcao_nome') })
      .from(profissionais)
      .leftJoin(funcoes, eq(funcoes.id, profissionais.funcaoProfissionalId))
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    db
      .select({
        profissionalId: profissionalFuncoes.profissionalId,
        id: funcoes.id,
        nome: sql<string>`${funcoes.label}`.as('funcao_nome'),
      })
      .from(profissionalFuncoes)
      .innerJoin(funcoes, eq(funcoes.id, profissionalFuncoes.funcaoId))
      .innerJoin(profissionais, eq(profissionais.id, profissionalFuncoes.profissionalId))
      .where(heldWhere)
      .orderBy(asc(funcoes.labelKey)),
  ] as const;
}

type ProfileRows = Awaited<ReturnType<typeof profissionaisQueries>[0]>;
type HeldRows = Awaited<ReturnType<typeof profissionaisQueries>[1]>;

export function withFuncoes(rows: ProfileRows, held: HeldRows) {
  const byProfile = new Map<string, { id: string; nome: string }[]>();
  for (const h of held) {
    const list = byProfile.get(h.profissionalId) ?? [];
    list.push({ id: h.id, nome: h.nome });
    byProfile.set(h.profissionalId, list);
  }
  return rows.map((r) => ({ ...r, funcoes: byProfile.get(r.p.id) ?? [] }));
}

/** Names of the given functions that exist in the region (to check references in the same round trip). */
export const funcoesInRegion = (db: Db, regiao: string, ids: string[]) =>
  db
    .select({ id: funcoes.id, nome: funcoes.label })
    .from(funcoes)
    .where(and(eq(funcoes.regiao, regiao), inArray(funcoes.id, ids)));
