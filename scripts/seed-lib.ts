/**
 * The demo data generator behind `npm run db:seed` (decisions D13) and `npm run bench` (issue 8).
 *
 * Deterministic: the same size on the same (empty) database gives the same rows, ids included. The
 * data is written as one SQL file of multi-row INSERTs (at most ~40 KB each, far below D1's
 * statement limit) and applied with `wrangler d1 execute DB --file`.
 *
 * With `force` on a database that already has FOT records, it adds more: FOT numbers continue after
 * the highest one, catalog entries that exist (same region and name key) are reused, demo users that
 * exist are kept as they are, and the random stream is seeded differently so new ids never collide.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPassword } from '../src/lib/password.ts';
import { nameKey } from '../src/lib/names.ts';
import { CliError, d1Execute, runWrangler, targetArgs, wranglerErrorLine, type Target } from './lib.ts';
import {
  BANKS,
  COMPANY_BASES,
  COURSES,
  EVENT_NOTES,
  EVENT_TYPE_BASES,
  EVENT_TYPE_VARIANTS,
  FIRST_NAMES,
  FOT_NOTES,
  FUNCTIONS,
  LOGISTICS_NOTES,
  REGIONS,
  SERVICE_TYPES,
  STREETS,
  SURNAMES,
  TIMES,
} from './seed-data.ts';

export const SEED_REGIONS = ['SP', 'MG'] as const;
type Regiao = (typeof SEED_REGIONS)[number];
type PerRegion = Record<Regiao, number>;

export type SeedSize = 'small' | 'bench';

/** How many rows of each kind, per region. */
export type SeedCounts = {
  empresas: PerRegion;
  cursos: PerRegion;
  anos: PerRegion;
  funcoes: PerRegion;
  tiposServicos: PerRegion;
  tiposEventos: PerRegion;
  fots: PerRegion;
  profissionais: PerRegion;
  agenda: PerRegion;
  teamEvents: number;
};

/** The named sizes. `bench` meets issue 8's minimums across both regions. */
export const SEED_SIZES: Record<SeedSize, SeedCounts> = {
  small: {
    empresas: { SP: 4, MG: 3 },
    cursos: { SP: 8, MG: 6 },
    anos: { SP: 6, MG: 6 },
    funcoes: { SP: 6, MG: 6 },
    tiposServicos: { SP: 4, MG: 4 },
    tiposEventos: { SP: 5, MG: 4 },
    fots: { SP: 15, MG: 10 },
    profissionais: { SP: 12, MG: 8 },
    agenda: { SP: 24, MG: 16 },
    teamEvents: 4,
  },
  bench: {
    empresas: { SP: 30, MG: 20 },
    cursos: { SP: 50, MG: 40 },
    anos: { SP: 10, MG: 10 },
    funcoes: { SP: 8, MG: 8 },
    tiposServicos: { SP: 8, MG: 6 },
    tiposEventos: { SP: 30, MG: 20 },
    fots: { SP: 1200, MG: 800 },
    profissionais: { SP: 300, MG: 200 },
    agenda: { SP: 1800, MG: 1200 },
    teamEvents: 30,
  },
};

type Role = 'SUPERADMIN' | 'BUSINESS_OWNER' | 'EVENT_OWNER' | 'RESEARCHER' | 'agenda_viewer' | 'profissional';
export type DemoUser = {
  key: 'admin' | 'gestor' | 'cliente' | 'pesquisa' | 'agenda' | 'profissional';
  role: Role;
  email: string;
  password: string;
  nome: string;
};

/** One active user per role, with known passwords (demo data only: never on a production database you care about). */
export const DEMO_USERS: DemoUser[] = [
  {
    key: 'admin',
    role: 'SUPERADMIN',
    email: 'demo.admin@example.com',
    password: 'demo-admin-2026',
    nome: 'Helena Prado (admin demo)',
  },
  {
    key: 'gestor',
    role: 'BUSINESS_OWNER',
    email: 'demo.gestor@example.com',
    password: 'demo-gestor-2026',
    nome: 'Otávio Bastos (gestor demo)',
  },
  {
    key: 'cliente',
    role: 'EVENT_OWNER',
    email: 'demo.cliente@example.com',
    password: 'demo-cliente-2026',
    nome: 'Sofia Mendonça (cliente demo)',
  },
  {
    key: 'pesquisa',
    role: 'RESEARCHER',
    email: 'demo.pesquisa@example.com',
    password: 'demo-pesquisa-2026',
    nome: 'Caio Rezende (pesquisa demo)',
  },
  {
    key: 'agenda',
    role: 'agenda_viewer',
    email: 'demo.agenda@example.com',
    password: 'demo-agenda-2026',
    nome: 'Lívia Furtado (agenda demo)',
  },
  {
    key: 'profissional',
    role: 'profissional',
    email: 'demo.profissional@example.com',
    password: 'demo-profissional-2026',
    nome: 'Marcos Tavares (profissional demo)',
  },
];

// ---------------------------------------------------------------- deterministic randomness

/** mulberry32: small, fast, good enough for demo data, and the same on every machine. */
class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  /** Earlier entries more likely (roughly 1/(i+1) weights): big cities, common functions. */
  pickSkewed<T>(xs: readonly T[]): T {
    return xs[Math.min(xs.length - 1, Math.floor(xs.length * this.next() ** 2))]!;
  }
  sample<T>(xs: readonly T[], n: number): T[] {
    const copy = [...xs];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  }
  uuid(): string {
    const b = Array.from({ length: 16 }, () => Math.floor(this.next() * 256));
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

function hashSeed(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

function cpf(rng: Rng): string {
  for (;;) {
    const d = Array.from({ length: 9 }, () => rng.int(0, 9));
    if (d.every((x) => x === d[0])) continue;
    const check = (len: number) => {
      let sum = 0;
      for (let i = 0; i < len; i++) sum += d[i]! * (len + 1 - i);
      const r = (sum * 10) % 11;
      return r === 10 ? 0 : r;
    };
    d.push(check(9));
    d.push(check(10));
    return d.join('');
  }
}

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.');

// ---------------------------------------------------------------- SQL writing

type Value = string | number | boolean | null | undefined;

function lit(v: Value): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  if (v.includes('\0')) throw new Error('NUL in text');
  return `'${v.replaceAll("'", "''")}'`;
}

const MAX_STATEMENT_BYTES = 40_000;

/** Rows per table, written as multi-row INSERTs in the order the tables were first used (parents first). */
class SqlWriter {
  private tables = new Map<string, { cols: string[]; rows: string[] }>();
  add(table: string, row: Record<string, Value>) {
    let t = this.tables.get(table);
    if (!t) this.tables.set(table, (t = { cols: Object.keys(row), rows: [] }));
    t.rows.push(`(${t.cols.map((c) => lit(row[c])).join(', ')})`);
  }
  count(table: string) {
    return this.tables.get(table)?.rows.length ?? 0;
  }
  counts(): Record<string, number> {
    return Object.fromEntries([...this.tables].map(([k, v]) => [k, v.rows.length]));
  }
  statements(): string[] {
    const out: string[] = [];
    for (const [table, { cols, rows }] of this.tables) {
      const head = `INSERT INTO ${table} (${cols.join(', ')}) VALUES\n`;
      let chunk: string[] = [];
      let bytes = head.length;
      for (const r of rows) {
        if (chunk.length && bytes + r.length + 2 > MAX_STATEMENT_BYTES) {
          out.push(`${head}${chunk.join(',\n')};`);
          chunk = [];
          bytes = head.length;
        }
        chunk.push(r);
        bytes += r.length + 2;
      }
      if (chunk.length) out.push(`${head}${chunk.join(',\n')};`);
    }
    return out;
  }
}

// ---------------------------------------------------------------- what is already there

export type Existing = {
  fotCount: number;
  maxFot: number;
  /** `${table}|${regiao}|${name_key}` → id */
  catalogs: Map<string, string>;
  /** e-mail → id */
  users: Map<string, string>;
  /** user ids that already have a linked professional profile */
  linkedProfiles: Set<string>;
};

export const emptyExisting = (): Existing => ({
  fotCount: 0,
  maxFot: 0,
  catalogs: new Map(),
  users: new Map(),
  linkedProfiles: new Set(),
});

const CATALOG_TABLES = [
  ['empresas', 'nome'],
  ['cursos', 'nome'],
  ['anos_formaturas', 'ano_semestre'],
  ['funcoes', 'nome'],
  ['tipos_servicos', 'nome'],
  ['tipos_eventos', 'nome'],
] as const;

/** Reads what the generator must not duplicate, in one wrangler call (read-only). */
export async function readExisting(target: Target): Promise<Existing> {
  const emails = DEMO_USERS.map((u) => lit(u.email)).join(', ');
  const statements = [
    'SELECT count(*) AS n, coalesce(max(fot), 0) AS m FROM cadastro_fot',
    `SELECT id, email FROM users WHERE email IN (${emails})`,
    'SELECT usuario_id FROM profissionais WHERE usuario_id IS NOT NULL',
    ...CATALOG_TABLES.map(([t, f]) => `SELECT '${t}' AS t, id, regiao, ${f}_key AS k FROM ${t}`),
  ];
  const res = await d1Execute(statements.join(';\n'), target);
  if (res.length !== statements.length)
    throw new CliError(`unexpected wrangler output: ${res.length} results for ${statements.length} statements`);
  const rows = (i: number) => res[i]?.results ?? [];
  const ex = emptyExisting();
  ex.fotCount = Number(rows(0)[0]?.n ?? 0);
  ex.maxFot = Number(rows(0)[0]?.m ?? 0);
  for (const r of rows(1)) ex.users.set(String(r.email), String(r.id));
  for (const r of rows(2)) ex.linkedProfiles.add(String(r.usuario_id));
  for (let i = 3; i < statements.length; i++)
    for (const r of rows(i)) ex.catalogs.set(`${r.t}|${r.regiao}|${r.k}`, String(r.id));
  return ex;
}

// ---------------------------------------------------------------- the generator

export type SeedPlan = {
  statements: string[];
  counts: Record<string, number>;
  users: (DemoUser & { id: string; created: boolean })[];
  fotRange: [number, number];
};

/**
 * Builds every INSERT. `hashes` maps each demo password to its PBKDF2 string (hashed once each by
 * the caller). `existing` says what to reuse. Pure: no I/O.
 */
export function generateSeed(size: SeedSize | SeedCounts, existing: Existing, hashes: Map<string, string>): SeedPlan {
  const n = typeof size === 'string' ? SEED_SIZES[size] : size;
  const rng = new Rng(
    hashSeed(`event-ops demo ${typeof size === 'string' ? size : JSON.stringify(size)} after fot ${existing.maxFot}`),
  );
  const w = new SqlWriter();

  // Timestamps: a fixed "now" (deterministic output), rows spread over the year before it.
  const NOW = Date.parse('2026-03-02T12:00:00.000Z');
  const DAY = 86_400_000;
  const stamp = (daysAgoMax: number) => {
    const created = NOW - rng.int(0, daysAgoMax * 24 * 60) * 60_000;
    const updated = rng.chance(0.4) ? created + rng.int(0, Math.floor((NOW - created) / 60_000)) * 60_000 : created;
    return { created_at: new Date(created).toISOString(), updated_at: new Date(updated).toISOString() };
  };

  // Catalogs: reuse an existing entry of the same region and name key, else insert one.
  type Entry = { id: string; label: string };
  const catalog = (table: string, field: string, regiao: Regiao, labels: string[]): Entry[] =>
    labels.map((label) => {
      const key = nameKey(label);
      const found = existing.catalogs.get(`${table}|${regiao}|${key}`);
      if (found) return { id: found, label };
      const id = rng.uuid();
      w.add(table, { id, regiao, [field]: label, [`${field}_key`]: key, ...stamp(365) });
      return { id, label };
    });

  const per = SEED_REGIONS.map((regiao) => {
    const info = REGIONS[regiao];
    const empresaLabels = Array.from({ length: n.empresas[regiao] }, (_, i) => {
      const base = COMPANY_BASES[i % COMPANY_BASES.length]!;
      const round = Math.floor(i / COMPANY_BASES.length);
      return round === 0 ? base : `${base} ${info.companySuffix[(round - 1) % info.companySuffix.length]}`;
    });
    const courseLabels = Array.from({ length: n.cursos[regiao] }, (_, i) =>
      i < COURSES.length ? COURSES[i]! : `${COURSES[i % COURSES.length]} (Noturno)`,
    );
    const anoLabels = Array.from({ length: n.anos[regiao] }, (_, i) => `${2024 + Math.floor(i / 2)}.${(i % 2) + 1}`);
    const tipoLabels = Array.from({ length: n.tiposEventos[regiao] }, (_, i) => {
      const b = EVENT_TYPE_BASES[i % EVENT_TYPE_BASES.length]!;
      const v = EVENT_TYPE_VARIANTS[Math.floor(i / EVENT_TYPE_BASES.length) % EVENT_TYPE_VARIANTS.length]!;
      return { label: `${b.nome}${v.sufixo}`, factor: b.factor * v.factor };
    });
    const funcs = FUNCTIONS.slice(0, n.funcoes[regiao]);
    return {
      regiao,
      info,
      empresas: catalog('empresas', 'nome', regiao, empresaLabels),
      cursos: catalog('cursos', 'nome', regiao, courseLabels),
      anos: catalog('anos_formaturas', 'ano_semestre', regiao, anoLabels),
      funcoes: catalog(
        'funcoes',
        'nome',
        regiao,
        funcs.map((f) => f.nome),
      ).map((e, i) => ({ ...e, ...funcs[i]! })),
      tiposServicos: catalog('tipos_servicos', 'nome', regiao, SERVICE_TYPES.slice(0, n.tiposServicos[regiao])),
      tiposEventos: tipoLabels.map((t) => ({
        ...catalog('tipos_eventos', 'nome', regiao, [t.label])[0]!,
        factor: t.factor,
      })),
    };
  });

  // Prices: every function for every event type created now (types that existed keep their prices).
  for (const r of per) {
    for (const t of r.tiposEventos) {
      if (existing.catalogs.has(`tipos_eventos|${r.regiao}|${nameKey(t.label)}`)) continue;
      for (const f of r.funcoes) {
        const reais = Math.round((f.base * t.factor * (0.9 + rng.next() * 0.2)) / 5) * 5;
        w.add('precos', {
          id: rng.uuid(),
          regiao: r.regiao,
          tipo_evento_id: t.id,
          funcao_profissional_id: f.id,
          valor_centavos: reais * 100,
          ...stamp(200),
        });
      }
    }
  }

  const sp = per[0]!;
  const personName = () => `${rng.pick(FIRST_NAMES)} ${rng.pick(SURNAMES)} ${rng.pick(SURNAMES)}`;
  const phone = (ddd: string) => `(${ddd}) 9${rng.int(6000, 9999)}-${String(rng.int(0, 9999)).padStart(4, '0')}`;

  // Users: one per role; an existing e-mail is kept untouched (its id is reused for ownership).
  const users = DEMO_USERS.map((u) => {
    const found = existing.users.get(u.email);
    const id = found ?? rng.uuid();
    if (!found) {
      const city = sp.info.cities[0]!;
      w.add('users', {
        id,
        nome: u.nome,
        email: u.email,
        senha_hash: hashes.get(u.password)!,
        telefone: phone(city.ddd),
        role: u.role,
        ativo: true,
        empresa_id: u.role === 'EVENT_OWNER' ? sp.empresas[0]!.id : null,
        cpf_cnpj: cpf(rng),
        professional_type: u.role === 'profissional' ? 'Fotógrafo' : null,
        endereco: `${rng.pick(STREETS)}, ${rng.int(10, 2500)}`,
        cidade: city.nome,
        uf: city.uf,
        cep: `${city.cep}${String(rng.int(0, 999)).padStart(3, '0')}`,
        ...stamp(300),
      });
    }
    return { ...u, id, created: !found };
  });
  const userId = (key: DemoUser['key']) => users.find((u) => u.key === key)!.id;

  // Professionals with 1 to 3 functions (the first is the main one) and ratings.
  type Prof = { id: string; regiao: Regiao; funcoes: string[] };
  const profs: Prof[] = [];
  let emailSeq = existing.maxFot; // keeps generated e-mails distinct across --force runs
  const addProfissional = (
    r: (typeof per)[number],
    opts: { usuarioId?: string; nome?: string; email?: string; funcoes?: string[] } = {},
  ) => {
    const id = rng.uuid();
    const nome = opts.nome ?? personName();
    const city = rng.chance(0.9) ? rng.pickSkewed(r.info.cities) : rng.pick(per.find((x) => x !== r)!.info.cities);
    const held =
      opts.funcoes ??
      rng
        .sample(r.funcoes.slice(0, Math.max(3, Math.ceil(r.funcoes.length * rng.next()))), rng.int(1, 3))
        .map((f) => f.id);
    const main = r.funcoes.find((f) => f.id === held[0])!;
    const email =
      opts.email ??
      `${ascii(nome)}.${++emailSeq}@${rng.pick(['gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.com.br', 'uol.com.br'])}`;
    const titular = cpf(rng);
    const rated = rng.chance(0.85);
    const rating = () => (rated ? rng.int(2, 5) : null);
    const estudio = main.nome === 'Fotógrafo' && rng.chance(0.2);
    w.add('profissionais', {
      id,
      regiao: r.regiao,
      usuario_id: opts.usuarioId ?? null,
      email,
      nome,
      funcao_profissional_id: main.id,
      whatsapp: phone(city.ddd),
      endereco: `${rng.pick(STREETS)}, ${rng.int(10, 2500)}`,
      cidade: city.nome,
      uf: city.uf,
      banco: rng.pick(BANKS),
      agencia: String(rng.int(100, 9999)).padStart(4, '0'),
      // The key and its type (docs/decisions.md#d18 "Tax"), in the same draw as before so the data set is unchanged.
      ...(rng.chance(0.5)
        ? { conta_pix: email, tipo_chave_pix: 'email' }
        : { conta_pix: titular, tipo_chave_pix: 'cpf' }),
      cpf_cnpj_titular: titular,
      tipo_cartao: rng.pick(['Débito', 'Crédito', 'Débito e crédito', null]),
      tabela_free: rng.pick(['Tabela padrão', 'Tabela premium', 'Tabela 2026', null]),
      equipamentos: rng.pick(main.equipamentos),
      observacao: rng.chance(0.25)
        ? rng.pick([
            'Disponível aos fins de semana.',
            'Prefere eventos noturnos.',
            'Atende também o interior.',
            'Experiência com colações grandes.',
          ])
        : null,
      carro_disponivel: rng.chance(0.6),
      tem_estudio: estudio,
      qtd_estudio: estudio ? rng.int(1, 2) : 0,
      extra_por_equipamento: rng.chance(0.3),
      qual_tec: rating(),
      educacao_simpatia: rating(),
      desempenho_evento: rating(),
      disp_horario: rating(),
      avatar_url: null,
      ...stamp(365),
    });
    for (const f of held) w.add('profissional_funcoes', { profissional_id: id, funcao_id: f });
    const p = { id, regiao: r.regiao, funcoes: held };
    profs.push(p);
    return p;
  };

  const fotografo = sp.funcoes[0]!;
  const cinegrafista = sp.funcoes[1]!;
  const demoProUser = users.find((u) => u.key === 'profissional')!;
  const demoPro = existing.linkedProfiles.has(demoProUser.id)
    ? undefined
    : addProfissional(sp, {
        usuarioId: demoProUser.id,
        nome: demoProUser.nome.replace(/ \(.*\)$/, ''),
        email: demoProUser.email,
        funcoes: [fotografo.id, cinegrafista.id],
      });
  for (const r of per)
    for (let i = 0; i < n.profissionais[r.regiao] - (demoPro && r === sp ? 1 : 0); i++) addProfissional(r);

  // FOT records: numbers continue after the highest one.
  type Fot = { id: string; regiao: Regiao; empresaId: string };
  const fots: Fot[] = [];
  let fotNumber = Math.max(existing.maxFot, 1000);
  const firstFot = fotNumber + 1;
  for (const r of per) {
    for (let i = 0; i < n.fots[r.regiao]; i++) {
      const inst = rng.pickSkewed(r.info.institutions);
      const city = r.info.cities.find((c) => c.nome === inst.cidade) ?? r.info.cities[0]!;
      const id = rng.uuid();
      // The demo EVENT_OWNER's company (the first of SP) holds a visible share of SP's records.
      const empresa = r === sp && rng.chance(0.1) ? r.empresas[0]! : rng.pick(r.empresas);
      w.add('cadastro_fot', {
        id,
        regiao: r.regiao,
        fot: ++fotNumber,
        empresa_id: empresa.id,
        curso_id: rng.pickSkewed(r.cursos).id,
        ano_formatura_id: rng.pick(r.anos).id,
        instituicao: inst.nome,
        cidade: city.nome,
        estado: city.uf,
        observacoes: rng.chance(0.3) ? rng.pick(FOT_NOTES) : null,
        gastos_captacao_centavos: rng.chance(0.8) ? rng.int(500, 25_000) * 100 + rng.pick([0, 0, 50, 75, 90]) : null,
        pre_venda: rng.chance(0.3),
        ...stamp(365),
      });
      fots.push({ id, regiao: r.regiao, empresaId: empresa.id });
    }
  }

  // Agenda events: the agenda_viewer owns about one in six, the admin the rest.
  type Event = { id: string; regiao: Regiao; fotografos: number; cinegrafistas: number };
  const events: Event[] = [];
  const firstDay = Date.parse('2025-08-01T00:00:00Z');
  for (const r of per) {
    const regionFots = fots.filter((f) => f.regiao === r.regiao);
    for (let i = 0; i < n.agenda[r.regiao]; i++) {
      const id = rng.uuid();
      const venue = rng.pick(r.info.venues);
      const fotografos = rng.int(1, 6);
      const cinegrafistas = rng.int(0, 3);
      const recepcionistas = rng.int(0, 4);
      const day = new Date(firstDay + rng.int(0, 729) * DAY).toISOString().slice(0, 10);
      const faltam = rng.chance(0.3);
      w.add('agenda', {
        id,
        regiao: r.regiao,
        user_id: rng.chance(1 / 6) ? userId('agenda') : userId('admin'),
        fot_id: rng.pick(regionFots).id,
        tipo_evento_id: rng.pickSkewed(r.tiposEventos).id,
        data_evento: day,
        horario: rng.chance(0.95) ? rng.pick(TIMES) : null,
        local_evento: venue.nome,
        endereco: venue.endereco,
        observacoes_evento: rng.chance(0.4) ? rng.pick(EVENT_NOTES) : null,
        logistica_observacoes: rng.chance(0.3) ? rng.pick(LOGISTICS_NOTES) : null,
        status_profissionais: faltam ? 'pendente' : 'completo',
        pre_venda: rng.chance(0.25),
        qtd_formandos: rng.int(15, 350),
        qtd_fotografos: fotografos,
        qtd_cinegrafistas: cinegrafistas,
        qtd_recepcionistas: recepcionistas,
        qtd_estudios: rng.int(0, 2),
        qtd_ponto_foto: rng.int(0, 3),
        qtd_ponto_id: rng.int(0, 2),
        qtd_ponto_decorado: rng.int(0, 2),
        qtd_pontos_led: rng.int(0, 2),
        qtd_plataforma_360: rng.int(0, 1),
        foto_faltante: faltam ? rng.int(0, fotografos) : 0,
        cine_faltante: faltam ? rng.int(0, cinegrafistas) : 0,
        recep_faltante: faltam ? rng.int(0, recepcionistas) : 0,
        ...stamp(300),
      });
      events.push({ id, regiao: r.regiao, fotografos, cinegrafistas });
    }
  }

  // Teams: a few SP events with quotas; the demo professional is invited to them (accepted or
  // pending) next to one other photographer (accepted), never above the quota.
  if (demoPro) {
    const otherPhotographers = profs.filter(
      (p) => p !== demoPro && p.regiao === 'SP' && p.funcoes.includes(fotografo.id),
    );
    const spEvents = events.filter((e) => e.regiao === 'SP');
    for (const e of rng.sample(spEvents, Math.min(n.teamEvents, spEvents.length))) {
      const quota = Math.max(2, e.fotografos);
      w.add('agenda_equipe', { agenda_id: e.id, funcao_id: fotografo.id, quantidade: quota, ...stamp(60) });
      if (e.cinegrafistas > 0)
        w.add('agenda_equipe', {
          agenda_id: e.id,
          funcao_id: cinegrafista.id,
          quantidade: e.cinegrafistas,
          ...stamp(60),
        });
      const accepted = rng.chance(0.6);
      const t = stamp(30);
      w.add('convites', {
        id: rng.uuid(),
        agenda_id: e.id,
        profissional_id: demoPro.id,
        funcao_id: fotografo.id,
        status: accepted ? 'aceito' : 'pendente',
        convidado_por: userId('admin'),
        respondido_em: accepted ? t.updated_at : null,
        ...t,
      });
      const other = otherPhotographers.length ? rng.pick(otherPhotographers) : undefined;
      if (other) {
        const t2 = stamp(30);
        w.add('convites', {
          id: rng.uuid(),
          agenda_id: e.id,
          profissional_id: other.id,
          funcao_id: fotografo.id,
          status: 'aceito',
          convidado_por: userId('admin'),
          respondido_em: t2.updated_at,
          ...t2,
        });
      }
    }
  }

  return { statements: w.statements(), counts: w.counts(), users, fotRange: [firstFot, fotNumber] };
}

// ---------------------------------------------------------------- running it

/** Each distinct demo password hashed once, exactly as the worker hashes. */
export async function hashDemoPasswords(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const u of DEMO_USERS) if (!out.has(u.password)) out.set(u.password, await hashPassword(u.password));
  return out;
}

export class AlreadySeeded extends CliError {}

export type SeedResult = SeedPlan & { file?: string };

/**
 * Reads the state, refuses a database with FOT records unless `force`, generates, writes the SQL
 * file and applies it with `wrangler d1 execute DB --file`. Migrations are the caller's job.
 */
export async function seedDatabase(opts: {
  target: Target;
  size: SeedSize | SeedCounts;
  force: boolean;
  keepFile?: string;
}): Promise<SeedResult> {
  const existing = await readExisting(opts.target);
  if (existing.fotCount > 0 && !opts.force) {
    throw new AlreadySeeded(
      `the database already has ${existing.fotCount} FOT records: nothing was seeded. ` +
        'Use --force to add more demo data (FOT numbers continue after the highest, existing catalog entries and demo users are reused).',
    );
  }
  const plan = generateSeed(opts.size, existing, await hashDemoPasswords());
  const dir = opts.keepFile ? undefined : mkdtempSync(path.join(tmpdir(), 'event-ops-seed-'));
  const file = opts.keepFile ?? path.join(dir!, 'seed.sql');
  const label = typeof opts.size === 'string' ? opts.size : 'custom';
  writeFileSync(
    file,
    `-- event-ops demo data, size ${label}, generated by scripts/seed-lib.ts\n${plan.statements.join('\n')}\n`,
  );
  try {
    const r = await runWrangler(['d1', 'execute', 'DB', ...targetArgs(opts.target), '--file', file], 900_000);
    if (r.code !== 0) throw new CliError(`wrangler d1 execute --file failed: ${wranglerErrorLine(r)}`);
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  return { ...plan, file: opts.keepFile };
}

/** Row counts per table and region after seeding (one wrangler call). */
export async function countRows(target: Target): Promise<{ table: string; SP: number; MG: number; total: number }[]> {
  const regional = [
    'empresas',
    'cursos',
    'anos_formaturas',
    'funcoes',
    'tipos_servicos',
    'tipos_eventos',
    'precos',
    'cadastro_fot',
    'profissionais',
    'agenda',
  ];
  const statements = [
    ...regional.map(
      (t) => `SELECT '${t}' AS t, sum(regiao = 'SP') AS sp, sum(regiao = 'MG') AS mg, count(*) AS total FROM ${t}`,
    ),
    `SELECT 'profissional_funcoes' AS t, NULL AS sp, NULL AS mg, count(*) AS total FROM profissional_funcoes`,
    `SELECT 'agenda_equipe' AS t, NULL AS sp, NULL AS mg, count(*) AS total FROM agenda_equipe`,
    `SELECT 'convites' AS t, NULL AS sp, NULL AS mg, count(*) AS total FROM convites`,
    `SELECT 'users' AS t, NULL AS sp, NULL AS mg, count(*) AS total FROM users`,
  ];
  const res = await d1Execute(statements.join(';\n'), target);
  return res.map((r) => {
    const row = r.results?.[0] ?? {};
    return { table: String(row.t), SP: Number(row.sp ?? 0), MG: Number(row.mg ?? 0), total: Number(row.total ?? 0) };
  });
}
