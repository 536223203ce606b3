import { and, eq, inArray, sql } from 'drizzle-orm';
import { cidades, funcoes, tiposEventos } from '../../db/schema';
import { fromCentavos } from '../../lib/money';
import type { Ctx } from '../core/context';
import { assertRefsInRegion } from '../core/references';
import { avaliarRegras, emVigor, type Avaliacao, type EventoRegras } from './avaliacao';
import { brDate } from '../../lib/dias-uteis';
import { naoUteisSelect } from './evento';
import { regraRefs, toStored, type RegraInput } from './regras';

/** An evaluation as the wire carries it: fees in reais (docs/api-conventions.md, "Money"). */
export const avaliacaoWire = (a: Avaliacao) => ({
  ...a,
  taxas: a.taxas.map(({ valor_unitario_centavos, total_centavos, ...t }) => ({
    ...t,
    valor_unitario: fromCentavos(valor_unitario_centavos),
    total: fromCentavos(total_centavos),
  })),
});

/** The sample event of POST /api/regras/validar. */
export interface EventoAmostra {
  data_evento: string;
  tipo_evento_id?: string;
  qtd_formandos?: number;
  uf?: string;
  cidade_ibge?: number;
  equipe?: { funcao_id: string; quantidade: number }[];
  qtd_estudios?: number;
}

/**
 * Evaluates a draft rule, alone, against a sample event (docs/decisions.md#d25), writing nothing: its
 * references are checked in the region as a save would, the holidays of the sample's place count.
 */
export async function validarRegra(ctx: Ctx, body: { regra: RegraInput; evento: EventoAmostra }) {
  const { db, regiao } = ctx;
  const { regra: draft, evento: e } = body;
  await assertRefsInRegion(ctx, [
    ...regraRefs(draft),
    { field: 'evento.tipo_evento_id', table: tiposEventos, id: e.tipo_evento_id },
  ]);
  const funcaoIds = draft.definicao.quotas.flatMap((q) => (q.funcao_id ? [q.funcao_id] : []));
  const uf =
    e.uf ??
    (e.cidade_ibge ? sql`(select ${cidades.uf} from ${cidades} where ${cidades.codigoIbge} = ${e.cidade_ibge})` : null);
  const [nomes, naoUteis] = await db.batch([
    db
      .select({ id: funcoes.id, nome: funcoes.label })
      .from(funcoes)
      .where(and(eq(funcoes.regiao, regiao), inArray(funcoes.id, funcaoIds))),
    naoUteisSelect(db, regiao, {
      data: e.data_evento,
      uf,
      cidade: e.cidade_ibge ?? null,
      instituicao: draft.instituicao_id ?? null,
    }),
  ]);
  const feriados = new Map<string, string>();
  for (const f of naoUteis) feriados.set(f.data, feriados.has(f.data) ? `${feriados.get(f.data)}, ${f.nome}` : f.nome);
  const evento: EventoRegras = {
    data_evento: e.data_evento,
    // A draft for one type of event is tried on that type unless the sample says otherwise.
    tipo_evento_id: e.tipo_evento_id ?? draft.tipo_evento_id ?? '',
    instituicao_id: draft.instituicao_id ?? null,
    qtd_formandos: e.qtd_formandos ?? null,
    equipe: e.equipe ? Object.fromEntries(e.equipe.map((q) => [q.funcao_id, q.quantidade])) : undefined,
    recursos: { qtd_estudios: e.qtd_estudios ?? null },
    feriados,
  };
  const regra = {
    id: 'rascunho',
    nome: draft.nome,
    escopo: draft.escopo,
    instituicao_id: draft.instituicao_id ?? null,
    tipo_evento_id: draft.tipo_evento_id ?? null,
    vigencia_inicio: draft.vigencia_inicio,
    vigencia_fim: draft.vigencia_fim ?? null,
    definicao: toStored(draft.definicao),
    funcoes: Object.fromEntries(nomes.map((n) => [n.id, n.nome])),
  };
  const avaliacao = avaliarRegras([regra], evento);
  if (!emVigor(regra, e.data_evento))
    avaliacao.avisos.unshift(`a regra não está em vigor em ${brDate(e.data_evento)}: nada se aplica a este evento`);
  else if (avaliacao.regras.length === 0)
    avaliacao.avisos.unshift('a regra é de outro tipo de evento: nada se aplica a este evento');
  return avaliacaoWire(avaliacao);
}
