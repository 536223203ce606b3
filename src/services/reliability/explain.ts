import type { ConfiabilidadeTipo } from '../../db/schema';
import {
  CANCEL_FAIXAS,
  CANCEL_TARDE,
  CHEGADA_FAIXAS,
  CHEGADA_ACIMA,
  CONFIRMACAO_PRAZO_H,
  FALTA,
  HALF_LIFE_DAYS,
  NOVO_BELOW,
  PRIOR_PADRAO,
  PRIOR_WEIGHT,
  SEM_CONFIRMACAO,
} from './formula';

/**
 * The score's rules and each row's effect in Portuguese, as the professional reads them
 * (docs/decisions.md#d28: LGPD art. 20, the criteria of an automated decision must be clear).
 * Numbers are written the Brazilian way (comma decimals).
 */

/** 0.5 → "0,5"; 12.345 → "12,3" (at most `digits` decimals, no trailing zeros). */
export const br = (n: number, digits = 1) => {
  const s = n.toFixed(digits).replace(/\.?0+$/, '');
  return (s === '-0' ? '0' : s).replace('.', ',');
};

/** Minutes as a duration a person says: "45 min", "12 h", "3 dias e 4 h". */
export function duracao(min: number) {
  const m = Math.abs(min);
  if (m < 60) return `${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h`;
  const d = Math.floor(h / 24);
  const rest = h % 24;
  return rest ? `${d} dias e ${rest} h` : `${d} dias`;
}

const peso = (n: number) => `peso ${br(n)}`;
const credito = (n: number) => `crédito ${br(n)}`;

/** The rules, one sentence each, in the order the guide gives them. */
export const REGRAS: readonly string[] = [
  `Chegada no horário (até ${CHEGADA_FAIXAS[0].ate} min de atraso, contado do horário de chegada da ficha ou do início): ${credito(CHEGADA_FAIXAS[0].credito)}, ${peso(CHEGADA_FAIXAS[0].peso)}.`,
  `Atraso de ${CHEGADA_FAIXAS[0].ate} a ${CHEGADA_FAIXAS[1].ate} min: ${credito(CHEGADA_FAIXAS[1].credito)}; de ${CHEGADA_FAIXAS[1].ate} a ${CHEGADA_FAIXAS[2].ate} min: ${credito(CHEGADA_FAIXAS[2].credito)}; mais de ${CHEGADA_FAIXAS[2].ate} min: ${credito(CHEGADA_ACIMA.credito)} (${peso(1)}).`,
  `Falta confirmada por um administrador (nunca automática): ${credito(FALTA.credito)}, ${peso(FALTA.peso)}.`,
  `Cancelar um convite já aceito de 3 a 7 dias antes do evento: ${credito(CANCEL_FAIXAS[0].credito)}, ${peso(CANCEL_FAIXAS[0].peso)}; de 1 a 3 dias antes: ${credito(CANCEL_FAIXAS[1].credito)}, ${peso(CANCEL_FAIXAS[1].peso)}; com menos de 24 horas: ${credito(CANCEL_TARDE.credito)}, ${peso(CANCEL_TARDE.peso)}.`,
  `Não confirmar a presença até ${CONFIRMACAO_PRAZO_H} horas antes do evento (quando o convite foi aceito com pelo menos 24 horas de antecedência): ${credito(SEM_CONFIRMACAO.credito)}, ${peso(SEM_CONFIRMACAO.peso)}.`,
  'Nunca contam: recusar um convite, declarar indisponibilidade, cancelar com 7 dias ou mais de antecedência, cancelar até 10 minutos depois de aceitar, cancelar depois que o escritório mudou a data, o horário ou o local do evento, cancelamentos feitos pelo escritório e registros abonados.',
  `Cada registro perde metade do peso a cada ${HALF_LIFE_DAYS} dias: o passado pesa cada vez menos.`,
  `A pontuação parte da média da sua região, que vale como ${PRIOR_WEIGHT} eventos: R = 100 × (${PRIOR_WEIGHT}·m + Σ peso·decaimento·crédito) / (${PRIOR_WEIGHT} + Σ peso·decaimento), com m a média de crédito da região (${br(PRIOR_PADRAO, 2)} enquanto a região não tem registros).`,
  `Enquanto a soma dos pesos dos seus registros for menor que ${NOVO_BELOW}, você aparece como "novo".`,
  'A pontuação só ordena sugestões para o escritório: nunca bloqueia convites, candidaturas ou pagamentos. Você pode contestar qualquer registro; um administrador responde, e um registro abonado deixa de contar na hora.',
];

/** What the row records, in one sentence. */
export function fato(tipo: ConfiabilidadeTipo, minutos: number | null) {
  switch (tipo) {
    case 'chegada':
      return minutos !== null && minutos > CHEGADA_FAIXAS[0].ate
        ? `Chegou com ${duracao(minutos)} de atraso`
        : `Chegou no horário${minutos ? ` (${minutos} min, dentro da tolerância de ${CHEGADA_FAIXAS[0].ate} min)` : ''}`;
    case 'falta':
      return 'Falta confirmada por um administrador';
    case 'cancelamento':
      return minutos !== null && minutos > 0
        ? `Cancelou um convite aceito ${duracao(minutos)} antes do início do evento`
        : 'Cancelou um convite aceito depois do início do evento';
    case 'sem_confirmacao':
      return `Não confirmou a presença até ${CONFIRMACAO_PRAZO_H} horas antes do evento`;
  }
}

/**
 * The row's effect explained: what it records, its credit and weight, how much of the weight it
 * keeps today, and the points it moves the score by (or why it no longer counts).
 */
export function efeito(
  row: {
    tipo: ConfiabilidadeTipo;
    minutos: number | null;
    credito: number;
    peso: number;
    abonado: boolean;
    motivo: string | null;
  },
  o: { decaimento: number; pontos: number },
) {
  const head = `${fato(row.tipo, row.minutos)}: ${credito(row.credito)}, ${peso(row.peso)}.`;
  if (row.abonado) return `${head} Abonado: não conta na pontuação${row.motivo ? ` (${row.motivo})` : ''}.`;
  const pct = Math.round(o.decaimento * 100);
  const p = Math.round(o.pontos * 10) / 10;
  const move =
    p === 0
      ? 'Hoje não muda a pontuação (arredondado a 0,1 ponto).'
      : `Hoje ${p > 0 ? 'soma' : 'tira'} ${br(Math.abs(p))} ponto${Math.abs(p) === 1 ? '' : 's'} da sua pontuação.`;
  return `${head} Vale ${pct}% do peso hoje (perde metade a cada ${HALF_LIFE_DAYS} dias). ${move}`;
}

/** The score in one sentence. */
export function resumo(o: { pontuacao: number; novo: boolean; m: number; eventos: number }) {
  const base = `Pontuação ${o.pontuacao} de 100, calculada de ${o.eventos} registro${o.eventos === 1 ? '' : 's'} e da média da região (${br(o.m * 100, 1)}).`;
  return o.novo
    ? `${base} Você ainda é "novo": com poucos registros, a pontuação fica perto da média da região.`
    : base;
}
