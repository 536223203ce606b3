import { toCsv } from '../../lib/csv';
import type { Capacidade } from './capacidade';

/** GET /api/planejamento/capacidade with `Accept: text/csv` (docs/decisions.md#d26): the same rows, one per line. */

const CSV_COLUMNS = [
  'periodo',
  'dia_critico',
  'tipo',
  'funcao_id',
  'recurso',
  'nome',
  'demanda_confirmada',
  'demanda_regras',
  'demanda_pico',
  'pool',
  'indisponiveis',
  'ja_alocados',
  'oferta_livre',
  'deficit',
  'status',
  'eventos',
] as const;

/** The rows as a spreadsheet (lib/csv.ts: formula-escaped; a function's name is text someone typed). */
export const capacidadeCsv = (c: Capacidade) =>
  toCsv(
    CSV_COLUMNS,
    c.linhas.map((l) => CSV_COLUMNS.map((k) => (k === 'eventos' ? l.eventos.join(' ') : l[k]))),
  );
