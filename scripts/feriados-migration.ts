/**
 * tsx scripts/feriados-migration.ts >> drizzle/<NNNN>_rules.sql
 *
 * Writes the data part of the rules' migration (docs/decisions.md#d25), appended after the tables
 * drizzle-kit generated: the national and state holidays of 2024-2040 into `feriados`, and the
 * system category `Taxa de instituição` of the regions that have system categories. Easter comes from the Gregorian computus (Meeus/Jones/Butcher), and with it
 * Carnaval, Ash Wednesday, Good Friday, Corpus Christi and Espírito Santo's Nossa Senhora da Penha.
 * The fixed dates are the federal and state laws as of 2026 (20 November national from 2024, Lei
 * 14.759/2023). Kept so the load can be reproduced or checked; the migration it wrote is never edited
 * once landed: a later change of the calendar is a new migration.
 */

import { nameKey } from '../src/lib/names.ts';

const FIRST_YEAR = 2024;
const LAST_YEAR = 2040;

/** Easter Sunday of a Gregorian year, as [month, day]. */
export function pascoa(y: number): [number, number] {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return [month, day];
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));
const easterPlus = (y: number, days: number) => {
  const [m, d] = pascoa(y);
  return iso(utc(y, m, d + days));
};
/** The date itself when a Sunday, else the next Sunday (Santa Catarina's days, Lei 13.408/2005). */
const nextSunday = (y: number, m: number, d: number) => {
  const dt = utc(y, m, d);
  return iso(utc(y, m, d + ((7 - dt.getUTCDay()) % 7)));
};
/** The first Sunday of a month. */
const firstSunday = (y: number, m: number) => nextSunday(y, m, 1);

type Tipo = 'feriado' | 'ponto_facultativo';
/** One day of a year: a fixed MM-DD, or computed from the year. */
type Dia = { nome: string; tipo?: Tipo; desde?: number } & ({ md: string } | { de: (y: number) => string });

const fixed = (md: string, nome: string, extra: Partial<Dia> = {}): Dia => ({ md, nome, ...extra }) as Dia;
const computed = (de: (y: number) => string, nome: string, extra: Partial<Dia> = {}): Dia =>
  ({ de, nome, ...extra }) as Dia;

/**
 * National days. Carnaval (Monday and Tuesday) and Corpus Christi are federal `ponto facultativo`
 * but banks, courts and universities close: the office counts them as holidays (docs/decisions.md#d25);
 * Ash Wednesday (work from 14:00) counts as a business day.
 */
const NACIONAIS: Dia[] = [
  fixed('01-01', 'Confraternização Universal'),
  computed((y) => easterPlus(y, -48), 'Carnaval (segunda-feira)'),
  computed((y) => easterPlus(y, -47), 'Carnaval (terça-feira)'),
  computed((y) => easterPlus(y, -46), 'Quarta-feira de Cinzas', { tipo: 'ponto_facultativo' }),
  computed((y) => easterPlus(y, -2), 'Sexta-feira Santa'),
  fixed('04-21', 'Tiradentes'),
  fixed('05-01', 'Dia do Trabalho'),
  computed((y) => easterPlus(y, 60), 'Corpus Christi'),
  fixed('09-07', 'Independência do Brasil'),
  fixed('10-12', 'Nossa Senhora Aparecida'),
  fixed('11-02', 'Finados'),
  fixed('11-15', 'Proclamação da República'),
  fixed('11-20', 'Dia Nacional de Zumbi e da Consciência Negra', { desde: 2024 }),
  fixed('12-25', 'Natal'),
];

/** State days (state laws); the national ones hold everywhere and are not repeated. */
const ESTADUAIS: Record<string, Dia[]> = {
  AC: [
    fixed('01-23', 'Dia do Evangélico'),
    fixed('03-08', 'Dia Internacional da Mulher'),
    fixed('06-15', 'Aniversário do Acre'),
    fixed('09-05', 'Dia da Amazônia'),
    fixed('11-17', 'Assinatura do Tratado de Petrópolis'),
  ],
  AL: [fixed('06-24', 'São João'), fixed('06-29', 'São Pedro'), fixed('09-16', 'Emancipação Política de Alagoas')],
  AM: [fixed('09-05', 'Elevação do Amazonas à categoria de província')],
  AP: [fixed('03-19', 'São José'), fixed('09-13', 'Criação do Território Federal do Amapá')],
  BA: [fixed('07-02', 'Independência da Bahia')],
  CE: [fixed('03-19', 'São José'), fixed('03-25', 'Data Magna do Ceará')],
  DF: [fixed('04-21', 'Fundação de Brasília'), fixed('11-30', 'Dia do Evangélico')],
  ES: [computed((y) => easterPlus(y, 8), 'Nossa Senhora da Penha')],
  GO: [fixed('07-26', 'Fundação da Cidade de Goiás'), fixed('10-24', 'Pedra Fundamental de Goiânia')],
  MA: [fixed('07-28', 'Adesão do Maranhão à Independência do Brasil')],
  MG: [fixed('04-21', 'Data Magna de Minas Gerais')],
  MS: [fixed('10-11', 'Criação do Estado de Mato Grosso do Sul')],
  MT: [],
  PA: [fixed('08-15', 'Adesão do Grão-Pará à Independência do Brasil')],
  PB: [fixed('07-26', 'Homenagem a João Pessoa'), fixed('08-05', 'Fundação do Estado da Paraíba')],
  PE: [computed((y) => firstSunday(y, 3), 'Data Magna de Pernambuco (Revolução de 1817)')],
  PI: [fixed('10-19', 'Dia do Piauí')],
  PR: [fixed('12-19', 'Emancipação Política do Paraná')],
  RJ: [fixed('04-23', 'Dia de São Jorge')],
  RN: [fixed('10-03', 'Mártires de Cunhaú e Uruaçu')],
  RO: [fixed('01-04', 'Criação do Estado de Rondônia'), fixed('06-18', 'Dia do Evangélico')],
  RR: [fixed('10-05', 'Criação do Estado de Roraima')],
  RS: [fixed('09-20', 'Revolução Farroupilha')],
  SC: [
    computed((y) => nextSunday(y, 8, 11), 'Data Magna de Santa Catarina'),
    computed((y) => nextSunday(y, 11, 25), 'Santa Catarina de Alexandria'),
  ],
  SE: [fixed('07-08', 'Emancipação Política de Sergipe')],
  SP: [fixed('07-09', 'Revolução Constitucionalista')],
  TO: [
    fixed('03-18', 'Autonomia do Estado do Tocantins'),
    fixed('09-08', 'Nossa Senhora da Natividade'),
    fixed('10-05', 'Criação do Estado do Tocantins'),
  ],
};

const dateOf = (dia: Dia, y: number) => ('md' in dia ? `${y}-${dia.md}` : dia.de(y));

/** A fresh UUID v4 made by SQLite per row (src/db/generated-id.ts). */
const ID = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
const AT = "'2026-11-27T00:00:00.000Z'";
const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

const CHUNK = 200;
const chunks = (all: string[]) =>
  Array.from({ length: Math.ceil(all.length / CHUNK) }, (_, i) => all.slice(i * CHUNK, (i + 1) * CHUNK));

/** One `(data, nome, tipo, escopo, uf)` tuple per day. */
export function rows(): string[] {
  const out: string[] = [];
  for (let y = FIRST_YEAR; y <= LAST_YEAR; y++) {
    const add = (dia: Dia, escopo: 'nacional' | 'uf', uf: string | null) => {
      if (dia.desde !== undefined && y < dia.desde) return;
      const ufSql = uf === null ? 'NULL' : q(uf);
      out.push(`(${q(dateOf(dia, y))},${q(dia.nome)},${q(dia.tipo ?? 'feriado')},${q(escopo)},${ufSql})`);
    };
    for (const dia of NACIONAIS) add(dia, 'nacional', null);
    for (const [uf, dias] of Object.entries(ESTADUAIS)) for (const dia of dias) add(dia, 'uf', uf);
  }
  return out;
}

if (process.argv[1]?.endsWith('feriados-migration.ts')) {
  const categoria = 'Taxa de instituição';
  const out = [
    '--> statement-breakpoint',
    '-- Unique indexes on expressions (nulls compared as empty), which drizzle-kit cannot write (src/db/schema/regras.ts).',
    "CREATE UNIQUE INDEX `regras_versao_uq` ON `regras` (`regiao`, `escopo`, coalesce(`instituicao_id`, ''), coalesce(`tipo_evento_id`, ''), `vigencia_inicio`);",
    '--> statement-breakpoint',
    "CREATE UNIQUE INDEX `feriados_dia_uq` ON `feriados` (coalesce(`regiao`, ''), `data`, `escopo`, coalesce(`uf`, ''), coalesce(`cidade_ibge`, 0), coalesce(`instituicao_id`, ''));",
    '--> statement-breakpoint',
    `-- National and state holidays of ${FIRST_YEAR}-${LAST_YEAR} (docs/decisions.md#d25), written by scripts/feriados-migration.ts,`,
    `-- ${CHUNK} rows per statement (a statement's text stays far under D1's limit).`,
    ...chunks(rows()).flatMap((chunk, i) => [
      ...(i > 0 ? ['--> statement-breakpoint'] : []),
      'INSERT INTO `feriados` (`id`, `regiao`, `data`, `nome`, `tipo`, `escopo`, `uf`, `created_at`, `updated_at`)',
      `SELECT ${ID}, NULL, column1, column2, column3, column4, column5, ${AT}, ${AT} FROM (VALUES`,
      chunk.join(',\n') + ');',
    ]),
    '--> statement-breakpoint',
    '-- The new system category of the regions seeded by 0007 (a region configured later gets it with the others).',
    'INSERT INTO `categorias_financeiras` (`id`, `regiao`, `nome`, `nome_key`, `tipo`, `sistema`, `created_at`, `updated_at`)',
    `SELECT ${ID}, r.regiao, ${q(categoria)}, ${q(nameKey(categoria))}, 'despesa', 'taxa_instituicao', ${AT}, ${AT}`,
    '  FROM (SELECT DISTINCT `regiao` FROM `categorias_financeiras` WHERE `sistema` IS NOT NULL) r WHERE 1',
    '  ON CONFLICT DO NOTHING;',
  ];
  process.stdout.write(out.join('\n') + '\n');
}
