import type { Documento, RegraEscopo, RegraRecurso } from '../../db/schema';
import { DOCUMENTOS } from '../../db/schema';
import { addDays, brDate, diasUteisAntes } from '../../lib/dias-uteis';

/**
 * The evaluation of institution and company rules (docs/decisions.md#d25): a pure function of
 * (rules, event) that explains each figure in Portuguese. No I/O: the route reads the rules and
 * the event (services/rules/evento.ts), the planner passes simulated events.
 */

export interface Quota {
  funcao_id?: string;
  recurso?: RegraRecurso;
  por_formandos: number;
  arredondar: 'cima' | 'baixo';
  min?: number;
  limite: 'minimo' | 'maximo' | 'exato';
}
export interface Prazo {
  tipo: 'credenciamento' | 'lista_formandos' | 'outro';
  quantidade: number;
  unidade: 'dias_uteis' | 'dias';
  antes_de: 'data_evento';
}
export interface Taxa {
  descricao: string;
  por: 'evento' | 'profissional' | 'estudio';
  valor_centavos: number;
}
/** `definicao` as stored (money in cents). */
export interface Definicao {
  quotas: Quota[];
  prazos: Prazo[];
  taxas: Taxa[];
  documentos: Documento[];
}

/** A rule as the evaluation needs it; `funcoes` names the functions its quotas refer to (for the sentences). */
export interface Regra {
  id: string;
  nome: string;
  escopo: RegraEscopo;
  instituicao_id: string | null;
  tipo_evento_id: string | null;
  vigencia_inicio: string;
  vigencia_fim: string | null;
  definicao: Definicao;
  funcoes?: Readonly<Record<string, string>>;
}

/** An event as the evaluation needs it (a real one, or the planner's simulation). */
export interface EventoRegras {
  data_evento: string;
  tipo_evento_id: string;
  instituicao_id: string | null;
  qtd_formandos: number | null;
  /** The team quota as set (function → quantity); absent: none set. */
  equipe?: Readonly<Record<string, number>>;
  /** The resources as set on the event. */
  recursos?: Partial<Record<RegraRecurso, number | null>>;
  /** Days that are not business days near the event (date → name): its city, state, country, institution. */
  feriados?: ReadonlyMap<string, string>;
}

export const RECURSO_NOMES: Record<RegraRecurso, string> = {
  qtd_estudios: 'estúdios',
  qtd_pontos_led: 'pontos de LED',
  qtd_plataforma_360: 'plataforma 360',
  qtd_ponto_foto: 'pontos de foto',
};
const LIMITE_NOMES = { minimo: 'mínimo', maximo: 'máximo', exato: 'exato' } as const;
const PRAZO_NOMES = { credenciamento: 'credenciamento', lista_formandos: 'lista de formandos', outro: 'prazo' };

/** One computed figure of a quota: the value, how it was found, and the rule. */
interface Figura {
  valor: number;
  calculo: string;
  regra: Regra;
}

export interface QuotaSugerida {
  funcao_id: string | null;
  recurso: RegraRecurso | null;
  nome: string;
  quantidade: number;
  minimo: number | null;
  maximo: number | null;
  explicacao: string;
}
export interface PrazoCalculado {
  tipo: Prazo['tipo'];
  quantidade: number;
  unidade: Prazo['unidade'];
  data_limite: string;
  regra_id: string;
  explicacao: string;
}
export interface TaxaCalculada {
  descricao: string;
  por: Taxa['por'];
  quantidade: number;
  valor_unitario_centavos: number;
  total_centavos: number;
  regra_id: string;
  explicacao: string;
}
export interface Conflito {
  code: 'EXCEEDS_INSTITUTION_LIMIT';
  funcao_id: string | null;
  recurso: RegraRecurso | null;
  quantidade: number;
  maximo: number;
  explicacao: string;
}
export interface Avaliacao {
  regras: { id: string; nome: string; escopo: RegraEscopo; tipo_evento_id: string | null }[];
  quotas_sugeridas: QuotaSugerida[];
  prazos: PrazoCalculado[];
  taxas: TaxaCalculada[];
  documentos: Documento[];
  conflitos: Conflito[];
  avisos: string[];
}

/** Whether the rule's vigencia holds on `date` (both ends included). */
export const emVigor = (r: Pick<Regra, 'vigencia_inicio' | 'vigencia_fim'>, date: string) =>
  r.vigencia_inicio <= date && (r.vigencia_fim === null || date <= r.vigencia_fim);

/**
 * The rules in force for the event, lowest first: the company's general rule, the company's for the
 * event's type, the institution's general, the institution's for the type. In each of these layers
 * the version whose vigencia holds on the event's date and started last wins; an upper layer's quota
 * (per function or resource and limit), deadline (per kind) and fee (per description) replace a lower one's.
 */
export function regrasEmVigor(regras: readonly Regra[], evento: EventoRegras): Regra[] {
  const layers: (Regra | undefined)[] = [undefined, undefined, undefined, undefined];
  for (const r of regras) {
    if (!emVigor(r, evento.data_evento)) continue;
    if (r.tipo_evento_id !== null && r.tipo_evento_id !== evento.tipo_evento_id) continue;
    if (r.escopo === 'instituicao' && (r.instituicao_id === null || r.instituicao_id !== evento.instituicao_id))
      continue;
    const layer = (r.escopo === 'instituicao' ? 2 : 0) + (r.tipo_evento_id === null ? 0 : 1);
    const cur = layers[layer];
    if (!cur || r.vigencia_inicio > cur.vigencia_inicio || (r.vigencia_inicio === cur.vigencia_inicio && r.id > cur.id))
      layers[layer] = r;
  }
  return layers.filter((r): r is Regra => r !== undefined);
}

const alvoKey = (q: Pick<Quota, 'funcao_id' | 'recurso'>) => (q.funcao_id ? `f:${q.funcao_id}` : `r:${q.recurso}`);
const alvoNome = (q: Pick<Quota, 'funcao_id' | 'recurso'>, r: Regra) =>
  q.funcao_id ? (r.funcoes?.[q.funcao_id] ?? q.funcao_id).toLocaleLowerCase('pt-BR') : RECURSO_NOMES[q.recurso!];

/** A quota's figure for `formandos` graduates: ceil/floor(F / por), at least `min`. */
function figura(q: Quota, formandos: number, regra: Regra): Figura {
  const fn = q.arredondar === 'cima' ? 'ceil' : 'floor';
  const raw =
    q.arredondar === 'cima' ? Math.ceil(formandos / q.por_formandos) : Math.floor(formandos / q.por_formandos);
  let calculo = `${fn}(${formandos} / ${q.por_formandos}) = ${raw}`;
  let valor = raw;
  if (q.min !== undefined && raw < q.min) {
    valor = q.min;
    calculo += `, no mínimo ${q.min}`;
  }
  return { valor, calculo, regra };
}

const money = (centavos: number) =>
  `R$ ${(centavos / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Evaluates the rules in force for the event: quotas, deadlines, fees, documents, conflicts. */
export function avaliarRegras(regras: readonly Regra[], evento: EventoRegras): Avaliacao {
  const vigentes = regrasEmVigor(regras, evento);
  const avisos: string[] = [];
  const quotas = sugerirQuotas(vigentes, evento, avisos);
  return {
    regras: vigentes.map((r) => ({ id: r.id, nome: r.nome, escopo: r.escopo, tipo_evento_id: r.tipo_evento_id })),
    quotas_sugeridas: quotas.map(({ sugerida }) => sugerida),
    prazos: calcularPrazos(vigentes, evento),
    taxas: calcularTaxas(vigentes, evento, quotas),
    documentos: DOCUMENTOS.filter((d) => vigentes.some((r) => r.definicao.documentos.includes(d))),
    conflitos: conflitosDe(quotas, evento),
    avisos,
  };
}

interface QuotaMerged {
  alvo: Pick<Quota, 'funcao_id' | 'recurso'>;
  nome: string;
  minimo?: Figura;
  maximo?: Figura;
  sugerida: QuotaSugerida;
}

function sugerirQuotas(vigentes: Regra[], evento: EventoRegras, avisos: string[]): QuotaMerged[] {
  const byAlvo = new Map<string, Omit<QuotaMerged, 'sugerida'>>();
  for (const regra of vigentes)
    for (const q of regra.definicao.quotas) {
      const key = alvoKey(q);
      const cur = byAlvo.get(key) ?? { alvo: { funcao_id: q.funcao_id, recurso: q.recurso }, nome: alvoNome(q, regra) };
      if (evento.qtd_formandos === null) {
        avisos.push(`${cur.nome}: sem qtd_formandos no evento, a quota da regra ${regra.nome} não foi calculada`);
        continue;
      }
      const f = figura(q, evento.qtd_formandos, regra);
      if (q.limite !== 'maximo')
        cur.minimo = { ...f, calculo: `${f.calculo} (${LIMITE_NOMES[q.limite]}, ${regra.nome})` };
      if (q.limite !== 'minimo')
        cur.maximo = { ...f, calculo: `${f.calculo} (${LIMITE_NOMES[q.limite]}, ${regra.nome})` };
      byAlvo.set(key, cur);
    }
  const out: QuotaMerged[] = [];
  for (const m of byAlvo.values()) {
    const { minimo, maximo } = m;
    if (!minimo && !maximo) continue;
    let quantidade = (minimo ?? maximo)!.valor;
    // The same figure as both (one `exato` quota) is said once.
    const ditos =
      minimo && maximo ? (minimo.calculo === maximo.calculo ? [minimo] : [minimo, maximo]) : [(minimo ?? maximo)!];
    let explicacao = `${m.nome}: ${ditos.map((f) => f.calculo).join('; ')}`;
    if (minimo && maximo && minimo.valor > maximo.valor) {
      quantidade = maximo.valor;
      explicacao += ` → ${quantidade} (o máximo limita o mínimo)`;
    } else if (ditos.length > 1) explicacao += ` → ${quantidade}`;
    out.push({
      ...m,
      sugerida: {
        funcao_id: m.alvo.funcao_id ?? null,
        recurso: m.alvo.recurso ?? null,
        nome: m.nome,
        quantidade,
        minimo: minimo?.valor ?? null,
        maximo: maximo?.valor ?? null,
        explicacao,
      },
    });
  }
  return out;
}

function calcularPrazos(vigentes: Regra[], evento: EventoRegras): PrazoCalculado[] {
  const byTipo = new Map<Prazo['tipo'], { p: Prazo; regra: Regra }>();
  for (const regra of vigentes) for (const p of regra.definicao.prazos) byTipo.set(p.tipo, { p, regra });
  const out: PrazoCalculado[] = [];
  for (const { p, regra } of byTipo.values()) {
    const nome = PRAZO_NOMES[p.tipo];
    const base = `${nome}: ${p.quantidade} ${p.unidade === 'dias_uteis' ? 'dias úteis' : 'dias'} antes de ${brDate(evento.data_evento)}`;
    let data_limite: string;
    let explicacao: string;
    if (p.unidade === 'dias') {
      data_limite = addDays(evento.data_evento, -p.quantidade) ?? evento.data_evento;
      explicacao = `${base} = ${brDate(data_limite)} (${regra.nome})`;
    } else {
      const r = diasUteisAntes(evento.data_evento, p.quantidade, evento.feriados ?? new Map());
      data_limite = r.data;
      const sem = r.pulados.length
        ? `; sem contar ${[...r.pulados]
            .reverse()
            .map((d) => `${brDate(d.data)} (${d.motivo})`)
            .join(', ')}`
        : '';
      explicacao = `${base} = ${brDate(data_limite)} (${regra.nome}${sem})`;
    }
    out.push({
      tipo: p.tipo,
      quantidade: p.quantidade,
      unidade: p.unidade,
      data_limite,
      regra_id: regra.id,
      explicacao,
    });
  }
  return out;
}

const taxaKey = (t: Taxa) =>
  t.descricao.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('pt-BR').replace(/\s+/g, ' ');

function calcularTaxas(vigentes: Regra[], evento: EventoRegras, quotas: QuotaMerged[]): TaxaCalculada[] {
  const byKey = new Map<string, { t: Taxa; regra: Regra }>();
  for (const regra of vigentes) for (const t of regra.definicao.taxas) byKey.set(taxaKey(t), { t, regra });
  const out: TaxaCalculada[] = [];
  for (const { t, regra } of byKey.values()) {
    const { quantidade, de } = taxaBase(t.por, evento, quotas);
    const total = t.valor_centavos * quantidade;
    out.push({
      descricao: t.descricao,
      por: t.por,
      quantidade,
      valor_unitario_centavos: t.valor_centavos,
      total_centavos: total,
      regra_id: regra.id,
      explicacao:
        t.por === 'evento'
          ? `${t.descricao}: ${money(t.valor_centavos)} por evento (${regra.nome})`
          : `${t.descricao}: ${money(t.valor_centavos)} × ${quantidade} ${de} = ${money(total)} (${regra.nome})`,
    });
  }
  return out;
}

/** How many units a fee multiplies: 1 event; the professionals of the team (as set, else as suggested); the studios. */
function taxaBase(por: Taxa['por'], evento: EventoRegras, quotas: QuotaMerged[]) {
  if (por === 'evento') return { quantidade: 1, de: 'evento' };
  if (por === 'profissional') {
    const equipe = evento.equipe && Object.keys(evento.equipe).length ? evento.equipe : undefined;
    if (equipe) return { quantidade: sum(Object.values(equipe)), de: 'profissionais (equipe do evento)' };
    const sugeridos = quotas.filter((q) => q.alvo.funcao_id).map((q) => q.sugerida.quantidade);
    return { quantidade: sum(sugeridos), de: 'profissionais (quotas sugeridas)' };
  }
  const set = evento.recursos?.qtd_estudios;
  if (set !== undefined && set !== null) return { quantidade: set, de: 'estúdios (do evento)' };
  const sugerido = quotas.find((q) => q.alvo.recurso === 'qtd_estudios')?.sugerida.quantidade ?? 0;
  return { quantidade: sugerido, de: 'estúdios (quota sugerida)' };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** A team quota or a resource set above a cap (`maximo` or `exato`). */
function conflitosDe(quotas: QuotaMerged[], evento: EventoRegras): Conflito[] {
  const out: Conflito[] = [];
  for (const q of quotas) {
    if (!q.maximo) continue;
    const atual = q.alvo.funcao_id
      ? evento.equipe?.[q.alvo.funcao_id]
      : (evento.recursos?.[q.alvo.recurso!] ?? undefined);
    if (atual === undefined || atual === null || atual <= q.maximo.valor) continue;
    out.push({
      code: 'EXCEEDS_INSTITUTION_LIMIT',
      funcao_id: q.alvo.funcao_id ?? null,
      recurso: q.alvo.recurso ?? null,
      quantidade: atual,
      maximo: q.maximo.valor,
      explicacao: `${q.nome}: ${atual} acima do máximo ${q.maximo.valor} (${q.maximo.calculo})`,
    });
  }
  return out;
}

/** The caps per function of the rules in force (team quota writes check them: services/teams/team-quota.ts). */
export function maximosPorFuncao(regras: readonly Regra[], evento: EventoRegras) {
  const caps = new Map<string, { maximo: number; explicacao: string }>();
  for (const q of sugerirQuotas(regrasEmVigor(regras, evento), evento, []))
    if (q.alvo.funcao_id && q.maximo)
      caps.set(q.alvo.funcao_id, { maximo: q.maximo.valor, explicacao: q.maximo.calculo });
  return caps;
}
