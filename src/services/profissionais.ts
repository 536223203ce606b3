import type { ProfissionalRow } from '../db/schema';

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
    ? { banco: p.banco, agencia: p.agencia, conta_pix: p.contaPix, cpf_cnpj_titular: p.cpfCnpjTitular, tipo_cartao: p.tipoCartao }
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

/** Wire field names of the self-editable profile fields → table columns. */
export function selfFieldsToColumns(b: Record<string, unknown>): Partial<ProfissionalRow> {
  const map: Record<string, keyof ProfissionalRow> = {
    nome: 'nome', whatsapp: 'whatsapp', endereco: 'endereco', cidade: 'cidade', uf: 'uf', banco: 'banco',
    agencia: 'agencia', conta_pix: 'contaPix', cpf_cnpj_titular: 'cpfCnpjTitular', tipo_cartao: 'tipoCartao',
    tabela_free: 'tabelaFree', equipamentos: 'equipamentos', observacao: 'observacao',
    carro_disponivel: 'carroDisponivel', tem_estudio: 'temEstudio', qtd_estudio: 'qtdEstudio',
    extra_por_equipamento: 'extraPorEquipamento', avatar_url: 'avatarUrl',
  };
  const out: Record<string, unknown> = {};
  for (const [wire, col] of Object.entries(map)) if (b[wire] !== undefined) out[col] = b[wire];
  return out as Partial<ProfissionalRow>;
}
