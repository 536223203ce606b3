/**
 * Benchmark baseline (issue 8): the same data as the project's routes, each answered with ONE raw
 * D1 prepared statement, with no framework, validation, authentication or ORM. It is what this
 * runtime can do at best; `npm run bench` reports the project's throughput as a ratio of it.
 *
 * Requests are the very ones sent to the project. The caller's identity (for /api/me and the
 * agenda_viewer's agenda) is read from the access token's payload WITHOUT verifying it: this is a
 * measuring device, never deploy it. `x-regiao` picks the region (default SP). `?limit=&offset=`
 * page the lists (X-Total-Count from a scalar subquery in the same statement: a count, or the rows
 * the project's triggers keep in contagens where the project reads them; the bench checks those
 * against a count after its runs, so a drift cannot pass as an equal answer on both sides).
 * Login compares one PBKDF2-SHA256 hash with the stored iterations (100,000), like the project.
 *
 * Issue 20's routes keep the rule "the route's essential SQL, raw, no authentication read": job
 * listings (one statement, the project's filters, quota and overlap subqueries), the calendar feed
 * (SHA-256 of the token, then owner and events in one batch, rendered as iCalendar), a FOT's result
 * (existence and the grouped query in one batch), the activity log's first page (one statement).
 * Writes are one batch: the row (the acceptance: one guarded UPDATE, own invitation, quota open, not
 * double-booked) and its read-back. The project also writes its log entry and checks its author.
 */

interface Env {
  DB: D1Database;
}

type Row = Record<string, unknown>;

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const regionOf = (req: Request) => (req.headers.get('x-regiao') ?? '').trim().toUpperCase() || 'SP';

/** The token's payload, unverified (see above). */
function claims(req: Request): { sub?: string; role?: string } {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  const part = token.split('.')[1];
  if (!part) return {};
  try {
    return JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string; role?: string };
  } catch {
    return {};
  }
}

/**
 * One statement for a list: `select` and `from` (FROM ... WHERE with `?` placeholders for `binds`).
 * Paged, the total is an uncorrelated scalar subquery over `countFrom` (SQLite evaluates it once), or
 * `total`, a whole select of one value taking the same `binds`.
 */
type ListQuery = { select: string; from: string; order: string } & ({ countFrom: string } | { total: string });

/** A total as the project reads it: one row its triggers keep in contagens (drizzle/0022, 0023, 0025). */
const keptTotal = (tabela: string, dono: '?' | "''" = "''") =>
  `SELECT coalesce(sum(n), 0) FROM contagens WHERE tabela = '${tabela}' AND regiao = ? AND dono = ${dono} AND dia = ''`;
async function list(env: Env, url: URL, q: ListQuery, binds: unknown[], map?: (r: Row) => Row): Promise<Response> {
  const limit = url.searchParams.get('limit');
  if (limit === null) {
    const { results } = await env.DB.prepare(`SELECT ${q.select} FROM ${q.from} ORDER BY ${q.order}`)
      .bind(...binds)
      .all<Row>();
    return json(map ? results.map(map) : results);
  }
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const total = 'total' in q ? q.total : `SELECT count(*) FROM ${q.countFrom}`;
  const sql = `SELECT (${total}) AS _total, ${q.select} FROM ${q.from} ORDER BY ${q.order} LIMIT ? OFFSET ?`;
  const { results } = await env.DB.prepare(sql)
    .bind(...binds, ...binds, Number(limit), offset)
    .all<Row>();
  const count = String(results[0]?._total ?? 0);
  const body = results.map((r) => {
    const { _total, ...rest } = r;
    return map ? map(rest) : rest;
  });
  return json(body, 200, { 'x-total-count': count });
}

const FOT: ListQuery = {
  select: `f.id, f.fot, f.regiao, f.empresa_id, e.nome AS empresa_nome, f.curso_id, c.nome AS curso_nome,
    f.ano_formatura_id, a.ano_semestre AS ano_formatura_label, f.instituicao, f.cidade, f.estado, f.observacoes,
    f.gastos_captacao_centavos / 100.0 AS gastos_captacao, f.pre_venda, f.created_at, f.updated_at`,
  from: `cadastro_fot f
    JOIN empresas e ON e.id = f.empresa_id
    JOIN cursos c ON c.id = f.curso_id
    JOIN anos_formaturas a ON a.id = f.ano_formatura_id
    WHERE f.regiao = ?`,
  total: keptTotal('cadastro_fot'),
  order: 'f.updated_at DESC, f.id',
};

const FUNCOES: ListQuery = {
  select: 'id, nome, regiao, created_at, updated_at',
  from: 'funcoes WHERE regiao = ?',
  countFrom: 'funcoes WHERE regiao = ?',
  order: 'nome_key, id',
};

const TIPOS: ListQuery = {
  select: `t.id, t.nome, t.regiao, t.created_at, t.updated_at,
    (SELECT json_group_array(json_object('id', x.id, 'tipo_evento_id', x.tipo_evento_id, 'funcao_profissional_id', x.funcao_profissional_id,
        'funcao_nome', x.funcao_nome, 'valor', x.valor_centavos / 100.0, 'regiao', x.regiao, 'created_at', x.created_at, 'updated_at', x.updated_at))
     FROM (SELECT p.*, fn.nome AS funcao_nome FROM precos p JOIN funcoes fn ON fn.id = p.funcao_profissional_id
           WHERE p.tipo_evento_id = t.id AND p.regiao = t.regiao ORDER BY fn.nome_key, p.id) x) AS precos`,
  from: 'tipos_eventos t WHERE t.regiao = ?',
  countFrom: 'tipos_eventos t WHERE t.regiao = ?',
  order: 't.nome_key, t.id',
};

// The team's counts are agenda_equipe's own columns (kept by the project's triggers, drizzle/0018 and 0027), as in the project.
const agendaQuery = (own: boolean): ListQuery => ({
  select: `a.*,
    json_object('id', f.id, 'fot', f.fot, 'instituicao', f.instituicao, 'cidade', f.cidade, 'estado', f.estado,
      'empresa_nome', e.nome, 'curso_nome', c.nome, 'ano_formatura_label', af.ano_semestre) AS fot,
    json_object('id', t.id, 'nome', t.nome) AS tipo_evento,
    (SELECT json_group_array(json_object('funcao_id', q.funcao_id, 'funcao_nome', fn.nome, 'quantidade', q.quantidade,
        'aceitos', q.aceitos, 'pendentes', q.pendentes, 'lista_espera', q.espera))
     FROM agenda_equipe q JOIN funcoes fn ON fn.id = q.funcao_id WHERE q.agenda_id = a.id) AS equipe`,
  from: `agenda a
    JOIN cadastro_fot f ON f.id = a.fot_id
    JOIN empresas e ON e.id = f.empresa_id
    JOIN cursos c ON c.id = f.curso_id
    JOIN anos_formaturas af ON af.id = f.ano_formatura_id
    JOIN tipos_eventos t ON t.id = a.tipo_evento_id
    WHERE a.regiao = ?${own ? ' AND a.user_id = ?' : ''}`,
  total: keptTotal('agenda', own ? '?' : "''"),
  order: 'a.data_evento, a.horario, a.id',
});
const AGENDA_ALL = agendaQuery(false);
const AGENDA_OWN = agendaQuery(true);

const PROFISSIONAIS: ListQuery = {
  select: `p.*, fm.nome AS funcao_profissional,
    round((coalesce(p.qual_tec, 0) + coalesce(p.educacao_simpatia, 0) + coalesce(p.desempenho_evento, 0) + coalesce(p.disp_horario, 0)) * 1.0
      / nullif((p.qual_tec IS NOT NULL) + (p.educacao_simpatia IS NOT NULL) + (p.desempenho_evento IS NOT NULL) + (p.disp_horario IS NOT NULL), 0), 2) AS media,
    (SELECT json_group_array(json_object('id', x.id, 'nome', x.nome))
     FROM (SELECT fn.id, fn.nome FROM profissional_funcoes pf JOIN funcoes fn ON fn.id = pf.funcao_id
           WHERE pf.profissional_id = p.id ORDER BY fn.nome_key) x) AS funcoes`,
  from: `profissionais p
    LEFT JOIN funcoes fm ON fm.id = p.funcao_profissional_id
    WHERE p.regiao = ?`,
  total: keptTotal('profissionais'),
  order: 'p.nome, p.id',
};

const ME_SQL = `SELECT u.id, u.nome AS name, u.email, u.telefone AS phone, u.role, u.ativo, u.empresa_id AS company_id,
  e.nome AS company_name, u.cpf_cnpj, u.professional_type, u.endereco, u.cidade, u.uf, u.cep, u.created_at, u.updated_at,
  CASE WHEN p.id IS NULL THEN NULL ELSE json_object('id', p.id, 'usuario_id', p.usuario_id, 'regiao', p.regiao, 'email', p.email,
    'nome', p.nome, 'funcao_profissional_id', p.funcao_profissional_id, 'funcao_profissional', fn.nome, 'whatsapp', p.whatsapp,
    'cidade', p.cidade, 'uf', p.uf, 'banco', p.banco, 'agencia', p.agencia, 'conta_pix', p.conta_pix,
    'qual_tec', p.qual_tec, 'educacao_simpatia', p.educacao_simpatia, 'desempenho_evento', p.desempenho_evento,
    'disp_horario', p.disp_horario, 'created_at', p.created_at, 'updated_at', p.updated_at) END AS profissional
FROM users u
LEFT JOIN empresas e ON e.id = u.empresa_id
LEFT JOIN profissionais p ON p.usuario_id = u.id
LEFT JOIN funcoes fn ON fn.id = p.funcao_profissional_id
WHERE u.id = ?`;

const parseCols = (cols: string[]) => (r: Row) => {
  for (const c of cols) if (typeof r[c] === 'string') r[c] = JSON.parse(r[c] as string);
  return r;
};

// ---- login: one PBKDF2-SHA256 comparison, the same self-describing format as src/lib/password.ts

const fromB64 = (s: string) => Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [, iter, saltB64, hashB64] = stored.split('$');
  const expected = fromB64(hashB64 ?? '');
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: fromB64(saltB64 ?? ''), iterations: Number(iter) },
    key,
    256,
  );
  const actual = new Uint8Array(bits);
  let diff = actual.length ^ expected.length;
  for (let i = 0; i < actual.length; i++) diff |= actual[i]! ^ (expected[i] ?? 0);
  return diff === 0;
}

// ---- issue 20's hot reads and writes (same essential SQL as the project, raw)

/** An event's time window in minutes since 1970 (services/teams/time-window.ts: 5 h without horario_fim, the day without horario). */
function windowOf(t: string) {
  const m = (hhmm: string) => `(cast(substr(${hhmm}, 1, 2) as integer) * 60 + cast(substr(${hhmm}, 4, 2) as integer))`;
  const day = `(cast(strftime('%s', ${t}.data_evento) as integer) / 60)`;
  return {
    start: `(${day} + coalesce(${m(`${t}.horario`)}, 0))`,
    end: `(case when ${t}.horario is null then ${day} + 1440
      when ${t}.horario_fim is null then ${day} + ${m(`${t}.horario`)} + 300
      when ${t}.horario_fim > ${t}.horario then ${day} + ${m(`${t}.horario_fim`)}
      else ${day} + 1440 + ${m(`${t}.horario_fim`)} end)`,
  };
}
/** The professional `prof` (SQL) is accepted on another event overlapping the event `ev` (an agenda alias). */
function overlap(prof: string, ev: string) {
  const a = windowOf('tw_a');
  const e = windowOf(ev);
  return `exists (select 1 from convites tw_c join agenda tw_a on tw_a.id = tw_c.agenda_id
    where tw_c.profissional_id = ${prof} and tw_c.status = 'aceito' and tw_c.agenda_id <> ${ev}.id
      and tw_c.data_evento between date(${ev}.data_evento, '-1 day') and date(${ev}.data_evento, '+1 day')
      and tw_a.data_evento between date(${ev}.data_evento, '-1 day') and date(${ev}.data_evento, '+1 day')
      and ${a.start} < ${e.end} and ${e.start} < ${a.end})`;
}
const LISTED = `(p.usuario_id is null or exists (select 1 from users lu where lu.id = p.usuario_id and lu.ativo = 1))`;
// Places left are agenda_equipe's own columns (kept by the project's triggers, drizzle/0018), as in the project.
const OPEN = 'q.publicar = 1 AND q.quantidade > q.aceitos';
const VAGAS_WHERE = `WHERE ${OPEN} AND a.regiao = p.regiao AND a.data_evento >= ?
    AND NOT EXISTS (SELECT 1 FROM convites c WHERE c.agenda_id = a.id AND c.profissional_id = p.id)`;
// The total as the project counts it: the open places of the caller's functions (from the counts the
// project's triggers keep per function and day, drizzle/0022), less those of events it is invited to,
// from its own invitations. Binds the caller and the date, like the list.
const OPEN_OF_P = `${OPEN} AND q.regiao = p.regiao AND q.data_evento >= d.desde`;
const VAGAS_TOTAL = `SELECT
    (SELECT coalesce(sum(k.n), 0) FROM profissional_funcoes pf CROSS JOIN contagens k
      WHERE pf.profissional_id = p.id AND k.tabela = 'vagas' AND k.regiao = p.regiao AND k.dono = pf.funcao_id
        AND k.dia >= d.desde)
    - (SELECT count(*) FROM convites c CROSS JOIN profissional_funcoes pf CROSS JOIN agenda_equipe q
      WHERE c.profissional_id = p.id AND pf.profissional_id = p.id AND q.agenda_id = c.agenda_id
        AND q.funcao_id = pf.funcao_id AND ${OPEN_OF_P})
  FROM (SELECT ? AS uid, ? AS desde) d JOIN profissionais p ON p.usuario_id = d.uid WHERE ${LISTED}`;
const VAGAS: ListQuery = {
  select: `a.id AS agenda_id, a.data_evento, a.horario, a.horario_fim, a.local_evento, f.cidade, f.estado AS uf,
    json_object('id', t.id, 'nome', t.nome) AS tipo_evento, q.funcao_id, fn.nome AS funcao_nome,
    q.requer_aprovacao, q.quantidade - q.aceitos AS vagas_restantes, pr.valor_centavos / 100.0 AS valor,
    ${overlap('p.id', 'a')} AS conflito_horario`,
  from: `agenda_equipe q
    JOIN agenda a ON a.id = q.agenda_id
    JOIN profissionais p ON p.usuario_id = ? AND ${LISTED}
    JOIN profissional_funcoes pf ON pf.profissional_id = p.id AND pf.funcao_id = q.funcao_id
    JOIN cadastro_fot f ON f.id = a.fot_id
    JOIN tipos_eventos t ON t.id = a.tipo_evento_id
    JOIN funcoes fn ON fn.id = q.funcao_id
    LEFT JOIN precos pr ON pr.tipo_evento_id = a.tipo_evento_id AND pr.funcao_profissional_id = q.funcao_id AND pr.regiao = a.regiao
    ${VAGAS_WHERE}`,
  total: VAGAS_TOTAL,
  order: 'a.data_evento, a.horario, a.id, fn.nome_key',
};
const vagaRow = (r: Row) => {
  r.tipo_evento = JSON.parse(r.tipo_evento as string);
  r.requer_aprovacao = !!r.requer_aprovacao;
  r.conflito_horario = !!r.conflito_horario;
  return r;
};

/** Today in America/Sao_Paulo (UTC-3 all year). */
const saoPauloToday = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

// The calendar feed: the owner of the token's hash, and its events (services/operations/calendario.ts feedCalendar).
const FEED_OWNER = `(select u.id as id, u.role as role, u.empresa_id as empresa_id from calendarios k
  join users u on u.id = k.user_id
  where k.token_hash = ? and u.ativo = 1 and u.role in ('profissional', 'agenda_viewer', 'EVENT_OWNER'))`;
const FEED_EVENTS = `with o as ${FEED_OWNER},
  mine as (
    select c.agenda_id as agenda_id, c.status as status from convites c
      join profissionais p on p.id = c.profissional_id
      join o on o.role = 'profissional' and p.usuario_id = o.id
      where c.status in ('aceito', 'pendente', 'solicitado') or (c.status in ('recusado', 'cancelado') and c.updated_at >= ?)
    union all
    select a.id, null from agenda a join o on o.role = 'agenda_viewer' and a.user_id = o.id
    union all
    select a.id, null from agenda a join o on o.role = 'EVENT_OWNER'
      join cadastro_fot f on f.id = a.fot_id and f.empresa_id = o.empresa_id
  )
  select a.id, a.data_evento, a.horario, a.horario_fim, a.local_evento, a.endereco, t.nome as tipo, f.fot, f.instituicao,
    mine.status, a.updated_at
  from mine join agenda a on a.id = mine.agenda_id
    join tipos_eventos t on t.id = a.tipo_evento_id
    join cadastro_fot f on f.id = a.fot_id
  where a.data_evento >= ?
  order by a.data_evento, a.horario, a.id
  limit 2000`;

const icalUtc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const icalEscape = (s: string) => s.replace(/[\\;,]/g, (ch) => `\\${ch}`).replace(/\n/g, '\\n');

async function feed(env: Env, token: string): Promise<Response> {
  const now = new Date();
  const hash = hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  const from = new Date(now.getTime() - 90 * 86_400_000).toISOString().slice(0, 10);
  const cancelledSince = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  const [owner, events] = await env.DB.batch<Row>([
    env.DB.prepare(`SELECT id FROM ${FEED_OWNER} o`).bind(hash),
    env.DB.prepare(FEED_EVENTS).bind(hash, cancelledSince, from),
  ]);
  const who = owner!.results[0];
  if (!who) return json({ error: 'not found' }, 404);
  const stamp = icalUtc(now);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//bench//baseline//PT-BR',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ];
  for (const e of events!.results) {
    const day = String(e.data_evento);
    const timed = typeof e.horario === 'string';
    const start = timed ? new Date(`${day}T${e.horario as string}:00-03:00`) : undefined;
    const end = start ? new Date(start.getTime() + 5 * 3_600_000) : undefined;
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.id as string}.${who.id as string}@event-ops`,
      `DTSTAMP:${stamp}`,
      `LAST-MODIFIED:${icalUtc(new Date(e.updated_at as string))}`,
      ...(start && end
        ? [`DTSTART:${icalUtc(start)}`, `DTEND:${icalUtc(end)}`]
        : [`DTSTART;VALUE=DATE:${day.replace(/-/g, '')}`]),
      `SUMMARY:${icalEscape(`${e.tipo as string} - FOT ${e.fot as number} - ${(e.instituicao as string | null) ?? ''}`)}`,
      ...(e.local_evento
        ? [`LOCATION:${icalEscape(`${e.local_evento as string}, ${(e.endereco as string | null) ?? ''}`)}`]
        : []),
      `STATUS:${e.status === 'pendente' || e.status === 'solicitado' ? 'TENTATIVE' : e.status === null || e.status === 'aceito' ? 'CONFIRMED' : 'CANCELLED'}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return new Response(`${lines.join('\r\n')}\r\n`, {
    headers: { 'content-type': 'text/calendar; charset=utf-8', 'cache-control': 'private, max-age=300' },
  });
}

// The result of a FOT (services/money/resultado.ts resultadoSelects): the record exists, and ONE grouped query
// over the sums triggers keep (drizzle/0035), as the project reads them.
const RESULTADO_SQL = `SELECT x.categoria_id, c.nome, x.tipo, sum(x.previsto) AS previsto, sum(x.realizado) AS realizado
  FROM (
    SELECT s.categoria_id, s.tipo, s.previsto, s.realizado FROM somas_lancamentos s
    WHERE s.regiao = ?1 AND s.escopo = 'fot' AND s.chave = ?2
    UNION ALL
    SELECT (SELECT c.id FROM categorias_financeiras c WHERE c.regiao = f.regiao AND c.sistema = 'captacao'),
      'despesa', 0, f.gastos_captacao_centavos
    FROM cadastro_fot f WHERE f.id = ?2 AND f.regiao = ?1 AND f.gastos_captacao_centavos > 0
  ) x JOIN categorias_financeiras c ON c.id = x.categoria_id
  GROUP BY x.categoria_id, x.tipo
  HAVING sum(x.previsto) <> 0 OR sum(x.realizado) <> 0
  ORDER BY x.tipo DESC, c.nome_key`;

async function resultado(env: Env, regiao: string, fotId: string): Promise<Response> {
  const [found, rows] = await env.DB.batch<Row>([
    env.DB.prepare('SELECT id FROM cadastro_fot WHERE id = ? AND regiao = ?').bind(fotId, regiao),
    env.DB.prepare(RESULTADO_SQL).bind(regiao, fotId),
  ]);
  if (!found!.results[0]) return json({ error: 'FOT não encontrado' }, 404);
  const r = rows!.results as {
    categoria_id: string;
    nome: string;
    tipo: string;
    previsto: number;
    realizado: number;
  }[];
  const sum = (tipo: string, k: 'previsto' | 'realizado') =>
    r.filter((x) => x.tipo === tipo).reduce((s, x) => s + x[k], 0);
  const receitas = sum('receita', 'previsto') + sum('receita', 'realizado');
  const despesas = sum('despesa', 'previsto') + sum('despesa', 'realizado');
  return json({
    receitas: receitas / 100,
    despesas: despesas / 100,
    resultado: (receitas - despesas) / 100,
    margem_pct: receitas === 0 ? null : Math.round(((receitas - despesas) * 10_000) / receitas) / 100,
    por_categoria: r.map((x) => ({ ...x, previsto: x.previsto / 100, realizado: x.realizado / 100 })),
  });
}

// The activity log's first page, newest first (services/core/activity-log.ts logPageSelect, as a SUPERADMIN).
const LOGS_SQL = `SELECT l.seq, l.id, l.created_at, l.ator_id, l.ator_role, l.acao, l.entidade, l.entidade_id, l.regiao,
    l.request_id, l.dados, s.hash_anterior, s.hash
  FROM logs_atividade l LEFT JOIN logs_atividade_selos s ON s.seq = l.seq
  ORDER BY l.seq DESC LIMIT ?`;

async function logs(env: Env, url: URL): Promise<Response> {
  const limit = Number(url.searchParams.get('limit') ?? 50);
  const { results } = await env.DB.prepare(LOGS_SQL)
    .bind(limit + 1)
    .all<Row>();
  const page = results.slice(0, limit).map((r): Row => ({ ...r, dados: JSON.parse(r.dados as string) as unknown }));
  const headers: Record<string, string> = {};
  if (results.length > limit) headers['x-next-cursor'] = btoa(String(page.at(-1)!.seq)).replace(/=+$/, '');
  return json(page, 200, headers);
}

// Writes: the row and its read-back in one batch (one round trip).
const FOT_VIEW = `SELECT f.*, e.nome AS empresa_nome, c.nome AS curso_nome, a.ano_semestre AS ano_formatura_label
  FROM cadastro_fot f JOIN empresas e ON e.id = f.empresa_id JOIN cursos c ON c.id = f.curso_id
  JOIN anos_formaturas a ON a.id = f.ano_formatura_id WHERE f.id = ?`;

/**
 * With `x-bench-log: 1` (the bench's "baseline + log entry" rows), a write also inserts its
 * activity-log entry in its batch, as the project does (the entry's columns and `dados` of a create;
 * the actor from the unverified token). Without it, the row alone.
 */
function logEntry(env: Env, req: Request, acao: string, id: string, regiao: string, dados: Record<string, unknown>) {
  if (req.headers.get('x-bench-log') !== '1') return [];
  const who = claims(req);
  const entidade = acao.split('.')[0]!;
  const changes = Object.fromEntries(Object.entries(dados).map(([k, v]) => [k, { depois: v }]));
  return [
    env.DB.prepare(
      `INSERT INTO logs_atividade (seq, id, created_at, ator_id, ator_role, acao, entidade, entidade_id, regiao, request_id, dados)
       VALUES (null, ?, ?, ?, ?, ?, ?, ?, ?, null, json(?))`,
    ).bind(
      crypto.randomUUID(),
      new Date().toISOString(),
      who.sub ?? null,
      who.role ?? null,
      acao,
      entidade,
      id,
      regiao,
      JSON.stringify(changes),
    ),
  ];
}

/** A create: its row, its log entry when asked (logEntry) and the row read back, in one batch. */
async function createAndRead(
  env: Env,
  req: Request,
  insert: D1PreparedStatement,
  entry: [acao: string, id: string, regiao: string, dados: Record<string, unknown>],
  view: D1PreparedStatement,
): Promise<Response> {
  const results = await env.DB.batch<Row>([insert, ...logEntry(env, req, ...entry), view]);
  return json(results.at(-1)!.results[0], 201);
}

async function createFot(env: Env, req: Request, regiao: string): Promise<Response> {
  const b = (await req.json()) as Record<string, string | number | null | undefined>;
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  return createAndRead(
    env,
    req,
    env.DB.prepare(
      `INSERT INTO cadastro_fot (id, regiao, fot, empresa_id, curso_id, ano_formatura_id, instituicao, cidade, estado,
        observacoes, gastos_captacao_centavos, pre_venda, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).bind(
      id,
      regiao,
      b.fot,
      b.empresa_id,
      b.curso_id,
      b.ano_formatura_id,
      b.instituicao ?? null,
      b.cidade ?? null,
      b.estado ?? null,
      b.observacoes ?? null,
      b.gastos_captacao == null ? null : Math.round(Number(b.gastos_captacao) * 100),
      b.pre_venda ? 1 : 0,
      now,
      now,
    ),
    [
      'cadastro_fot.create',
      id,
      regiao,
      { fot: b.fot, empresa_id: b.empresa_id, curso_id: b.curso_id, ano_formatura_id: b.ano_formatura_id },
    ],
    env.DB.prepare(FOT_VIEW).bind(id),
  );
}

async function createLancamento(env: Env, req: Request, regiao: string): Promise<Response> {
  const b = (await req.json()) as Record<string, string | number | null | undefined>;
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  return createAndRead(
    env,
    req,
    env.DB.prepare(
      `INSERT INTO lancamentos (id, regiao, tipo, categoria_id, descricao, valor_centavos, vencimento, fot_id, agenda_id,
        profissional_id, chave_externa, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).bind(
      id,
      regiao,
      b.tipo,
      b.categoria_id,
      b.descricao,
      Math.round(Number(b.valor) * 100),
      b.vencimento,
      b.fot_id ?? null,
      b.agenda_id ?? null,
      b.profissional_id ?? null,
      b.chave_externa ?? null,
      now,
      now,
    ),
    [
      'lancamentos.create',
      id,
      regiao,
      { tipo: b.tipo, descricao: b.descricao, valor_centavos: Math.round(Number(b.valor) * 100) },
    ],
    env.DB.prepare(
      'SELECT l.*, c.nome AS categoria_nome FROM lancamentos l JOIN categorias_financeiras c ON c.id = l.categoria_id WHERE l.id = ?',
    ).bind(id),
  );
}

/**
 * The invited professional accepts: ONE guarded update (its own invitation, pendente or recusado,
 * quota open, not double-booked, as services/teams/convites.ts acceptStatements) and the read-back.
 */
const ACCEPT_WHERE = `convites.id = ?2 AND convites.status IN ('pendente', 'recusado')
    AND convites.profissional_id IN (SELECT id FROM profissionais WHERE usuario_id = ?3)
    AND (SELECT q.quantidade FROM agenda_equipe q WHERE q.agenda_id = convites.agenda_id AND q.funcao_id = convites.funcao_id)
      > (SELECT count(*) FROM convites cv WHERE cv.agenda_id = convites.agenda_id AND cv.funcao_id = convites.funcao_id AND cv.status = 'aceito')
    AND NOT (SELECT ${overlap('convites.profissional_id', 'ev')} FROM agenda ev WHERE ev.id = convites.agenda_id)`;
const ACCEPT_SQL = `UPDATE convites SET status = 'aceito', respondido_em = ?1, updated_at = ?1 WHERE ${ACCEPT_WHERE}`;
const CONVITE_VIEW = `SELECT c.*, p.nome AS profissional_nome, fn.nome AS funcao_nome FROM convites c
  JOIN profissionais p ON p.id = c.profissional_id JOIN funcoes fn ON fn.id = c.funcao_id WHERE c.id = ?`;

/**
 * With `x-bench-log: 1` (the bench's "baseline + its effects" row), the acceptance's other effects
 * as the project writes them (services/teams/convites.ts acceptStatements and answerPlan, financeiro.ts
 * feeOnAccept), raw and in the same batch: the log entry under the update's own guard, the system
 * finance categories of the region ensured, the fee (the function's price for the event type, when
 * there is one) and its log entry, and the inviter's and the event creator's notification, each
 * only if this request accepted (respondido_em = its own instant). Actor from the unverified token.
 */
function acceptEffects(env: Env, req: Request, id: string, now: string) {
  if (req.headers.get('x-bench-log') !== '1') return { before: [], after: [] };
  const who = claims(req);
  const fee = crypto.randomUUID();
  const mine = `FROM convites c JOIN agenda a ON a.id = c.agenda_id WHERE c.id = ?2 AND c.status = 'aceito' AND c.respondido_em = ?1`;
  const categorias = JSON.stringify(
    [
      ['contrato', 'Contrato', 'receita'],
      ['pacotes_fotos', 'Pacotes de fotos', 'receita'],
      ['cache_profissional', 'Cachê profissional', 'despesa'],
      ['logistica', 'Logística', 'despesa'],
      ['equipamento', 'Equipamento', 'despesa'],
      ['captacao', 'Captação', 'despesa'],
    ].map(([sistema, nome, tipo]) => ({ id: crypto.randomUUID(), sistema, nome, key: nome!.toLowerCase(), tipo })),
  );
  const preco = `(SELECT pr.valor_centavos FROM precos pr WHERE pr.tipo_evento_id = a.tipo_evento_id
    AND pr.funcao_profissional_id = c.funcao_id AND pr.regiao = a.regiao)`;
  const entry = (select: string) =>
    `INSERT INTO logs_atividade (seq, id, created_at, ator_id, ator_role, acao, entidade, entidade_id, regiao, request_id, dados) ${select}`;
  return {
    before: [
      env.DB.prepare(
        entry(`SELECT null, ?4, ?1, ?5, ?6, 'convites.accept', 'convites', convites.id,
          (SELECT a.regiao FROM agenda a WHERE a.id = convites.agenda_id), null,
          json_object('status', json_object('antes', convites.status, 'depois', 'aceito'))
          FROM convites WHERE ${ACCEPT_WHERE}`),
      ).bind(now, id, who.sub ?? '', crypto.randomUUID(), who.sub ?? null, who.role ?? null),
    ],
    after: [
      env.DB.prepare(
        `INSERT INTO categorias_financeiras (id, regiao, nome, nome_key, tipo, sistema, created_at, updated_at)
         SELECT json_extract(j.value, '$.id'), a.regiao, json_extract(j.value, '$.nome'), json_extract(j.value, '$.key'),
           json_extract(j.value, '$.tipo'), json_extract(j.value, '$.sistema'), ?1, ?1
         ${mine.replace('WHERE', 'JOIN json_each(?3) j WHERE')} ON CONFLICT DO NOTHING`,
      ).bind(now, id, categorias),
      env.DB.prepare(
        `INSERT INTO lancamentos (id, regiao, tipo, categoria_id, descricao, valor_centavos, vencimento, status, fot_id,
           agenda_id, profissional_id, origem, convite_id, created_at, updated_at)
         SELECT ?3, a.regiao, 'despesa', (SELECT k.id FROM categorias_financeiras k WHERE k.regiao = a.regiao AND k.sistema = 'cache_profissional'),
           'Cachê ' || coalesce((SELECT f.nome FROM funcoes f WHERE f.id = c.funcao_id), '') || ' — evento de ' || a.data_evento,
           ${preco}, a.data_evento, 'previsto', a.fot_id, a.id, c.profissional_id, 'cache', c.id, ?1, ?1
         ${mine} AND ${preco} IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM lancamentos l WHERE l.convite_id = c.id AND l.status <> 'cancelado')`,
      ).bind(now, id, fee),
      env.DB.prepare(
        entry(`SELECT null, ?2, ?1, ?3, ?4, 'lancamentos.create', 'lancamentos', l.id, l.regiao, null,
          json_object('tipo', json_object('depois', 'despesa'), 'valor_centavos', json_object('depois', l.valor_centavos),
            'convite_id', json_object('depois', l.convite_id))
          FROM lancamentos l WHERE l.id = ?5`),
      ).bind(now, crypto.randomUUID(), who.sub ?? null, who.role ?? null, fee),
      env.DB.prepare(
        `INSERT INTO notifications (id, user_id, tipo, titulo, mensagem, dados, lida, created_at, updated_at)
         SELECT lower(hex(randomblob(16))), t.u, 'convite_respondido', 'Convite aceito',
           'Um profissional aceitou o convite para o evento de ' || a.data_evento || '.',
           json_object('convite_id', c.id, 'status', 'aceito'), 0, ?1, ?1
         ${mine.replace('WHERE', 'JOIN (SELECT c2.convidado_por AS u FROM convites c2 WHERE c2.id = ?2 UNION SELECT a2.user_id FROM agenda a2 JOIN convites c3 ON c3.agenda_id = a2.id WHERE c3.id = ?2) t WHERE')}
           AND t.u IS NOT NULL AND t.u <> ?3 RETURNING id, user_id`,
      ).bind(now, id, who.sub ?? ''),
    ],
  };
}

/**
 * The season planner's essential reads (D26), raw, in one batch: the range's events with their
 * quotas, the functions with their kept head counts, the accepted invitations, the travel matrix
 * between the range's cities, the stock. No peak, no availability rule: what reading costs.
 */
async function capacidade(env: Env, url: URL, regiao: string): Promise<Response> {
  const de = url.searchParams.get('de') ?? '';
  const ate = url.searchParams.get('ate') ?? '';
  const range = 'a.regiao = ?1 AND a.data_evento BETWEEN ?2 AND ?3';
  const st = (q: string) => env.DB.prepare(q).bind(regiao, de, ate);
  const [events, teams, funcs, accepted, matrix, stock] = await env.DB.batch<Row>([
    st(`SELECT a.id, a.data_evento, a.horario, a.horario_fim, a.cidade_ibge, a.qtd_fotografos, a.qtd_cinegrafistas,
      a.qtd_recepcionistas, a.qtd_estudios, a.qtd_ponto_foto, a.qtd_ponto_id, a.qtd_ponto_decorado, a.qtd_pontos_led,
      a.qtd_plataforma_360 FROM agenda a WHERE ${range} ORDER BY a.data_evento, a.horario, a.id`),
    st(
      `SELECT e.agenda_id, e.funcao_id, e.quantidade FROM agenda a JOIN agenda_equipe e ON e.agenda_id = a.id WHERE ${range}`,
    ),
    env.DB.prepare(
      `SELECT f.id, f.nome, coalesce((SELECT k.n FROM contagens k WHERE k.tabela = 'funcoes' AND k.regiao = '' AND k.dono = f.id AND k.dia = ''), 0) AS pool
       FROM funcoes f WHERE f.regiao = ? ORDER BY f.nome_key, f.id`,
    ).bind(regiao),
    st(
      `SELECT a.data_evento, c.profissional_id, c.funcao_id FROM agenda a JOIN convites c ON c.agenda_id = a.id AND c.status = 'aceito' WHERE ${range}`,
    ),
    st(`SELECT origem_ibge, destino_ibge, minutos FROM deslocamentos WHERE regiao = ?1
      AND origem_ibge IN (SELECT a.cidade_ibge FROM agenda a WHERE ${range}) AND destino_ibge IN (SELECT a.cidade_ibge FROM agenda a WHERE ${range})`),
    env.DB.prepare('SELECT recurso, quantidade FROM estoque_equipamentos WHERE regiao = ?').bind(regiao),
  ]);
  return json({
    de,
    ate,
    eventos: events!.results.length,
    equipes: teams!.results.length,
    funcoes: funcs!.results,
    aceitos: accepted!.results.length,
    deslocamentos: matrix!.results.length,
    estoque: stock!.results,
  });
}

async function accept(env: Env, req: Request, id: string): Promise<Response> {
  const { status } = (await req.json()) as { status?: string };
  if (status !== 'aceito') return json({ error: 'only aceito is benched' }, 400);
  const now = new Date().toISOString();
  const effects = acceptEffects(env, req, id, now);
  const results = await env.DB.batch<Row>([
    ...effects.before,
    env.DB.prepare(ACCEPT_SQL).bind(now, id, claims(req).sub ?? ''),
    ...effects.after,
    env.DB.prepare(CONVITE_VIEW).bind(id),
  ]);
  const update = results[effects.before.length]!;
  const view = results.at(-1)!;
  if (!update.meta.changes) return json({ error: 'not accepted' }, view.results[0] ? 409 : 404);
  return json(view.results[0]);
}

/**
 * The ranking's essential SQL (D29), raw: the region's holders of the function who are not invited to
 * the event, not accepted on another event that day and not unavailable on it, scored by a weighted
 * sum of rotation (accepted jobs in the 30 days before), the administrators' ratings and the main
 * function, best 20 first. The project also computes distance, client ratings, preference, reply
 * times and alerts, and explains each component.
 */
const CANDIDATOS_SQL = `SELECT p.id AS profissional_id, p.nome,
    0.15 / (1 + (SELECT count(*) FROM convites j WHERE j.profissional_id = p.id AND j.status = 'aceito'
        AND j.data_evento >= date(e.data_evento, '-30 days') AND j.data_evento < e.data_evento))
    + 0.2 * coalesce((coalesce(p.qual_tec, 0) + coalesce(p.educacao_simpatia, 0) + coalesce(p.desempenho_evento, 0)
        + coalesce(p.disp_horario, 0)) / 20.0, 0.5)
    + 0.05 * (CASE WHEN p.funcao_profissional_id = pf.funcao_id THEN 1 ELSE 0.7 END) AS score
  FROM agenda e JOIN profissional_funcoes pf ON pf.funcao_id = ?2
    JOIN profissionais p ON p.id = pf.profissional_id AND p.regiao = e.regiao
  WHERE e.id = ?1 AND e.regiao = ?3
    AND NOT EXISTS (SELECT 1 FROM convites c WHERE c.agenda_id = e.id AND c.profissional_id = p.id)
    AND NOT EXISTS (SELECT 1 FROM convites c WHERE c.profissional_id = p.id AND c.status = 'aceito'
      AND c.data_evento = e.data_evento)
    AND NOT EXISTS (SELECT 1 FROM disponibilidades d WHERE d.profissional_id = p.id AND d.tipo = 'indisponivel'
      AND d.data_inicio <= e.data_evento AND d.data_fim >= e.data_evento)
  ORDER BY score DESC, p.id LIMIT 20`;

async function candidatos(env: Env, url: URL, id: string, regiao: string): Promise<Response> {
  const { results } = await env.DB.prepare(CANDIDATOS_SQL)
    .bind(id, url.searchParams.get('funcao_id') ?? '', regiao)
    .all<Row>();
  return json({ agenda_id: id, candidatos: results });
}

export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    const url = new URL(req.url);
    const regiao = regionOf(req);
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case 'GET /health':
        return json({ status: 'ok', baseline: true });
      case 'GET /api/cadastro-fot':
        return list(env, url, FOT, [regiao]);
      case 'GET /api/funcoes':
        return list(env, url, FUNCOES, [regiao]);
      case 'GET /api/tipos-eventos':
        return list(env, url, TIPOS, [regiao], parseCols(['precos']));
      case 'GET /api/agenda': {
        const who = claims(req);
        const own = who.role === 'agenda_viewer';
        return list(
          env,
          url,
          own ? AGENDA_OWN : AGENDA_ALL,
          own ? [regiao, who.sub] : [regiao],
          parseCols(['fot', 'tipo_evento', 'equipe']),
        );
      }
      case 'GET /api/profissionais':
        return list(env, url, PROFISSIONAIS, [regiao], parseCols(['funcoes']));
      case 'GET /api/me': {
        const row = await env.DB.prepare(ME_SQL)
          .bind(claims(req).sub ?? '')
          .first<Row>();
        if (!row) return json({ error: 'not found' }, 404);
        return json({
          user: row,
          profissional: typeof row.profissional === 'string' ? JSON.parse(row.profissional) : null,
        });
      }
      case 'POST /auth/login': {
        const body = (await req.json()) as { email?: string; senha?: string };
        const user = await env.DB.prepare('SELECT id, senha_hash, ativo FROM users WHERE email = ?')
          .bind(body.email ?? '')
          .first<{ id: string; senha_hash: string }>();
        const ok = user ? await verifyPassword(body.senha ?? '', user.senha_hash) : false;
        return ok ? json({ id: user!.id }) : json({ error: 'invalid e-mail or password' }, 401);
      }
      case 'POST /api/cursos': {
        const { nome } = (await req.json()) as { nome: string };
        const now = new Date().toISOString();
        const id = crypto.randomUUID();
        const insert = env.DB.prepare(
          'INSERT INTO cursos (id, regiao, nome, nome_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id, nome, regiao, created_at, updated_at',
        ).bind(id, regiao, nome, nome.normalize('NFC').trim().toLocaleLowerCase('pt-BR'), now, now);
        const log = logEntry(env, req, 'cursos.create', id, regiao, { nome });
        if (log.length === 0) return json(await insert.first(), 201);
        const [inserted] = await env.DB.batch<Row>([insert, ...log]);
        return json(inserted!.results[0], 201);
      }
      case 'GET /api/vagas':
        return list(env, url, VAGAS, [claims(req).sub ?? '', saoPauloToday()], vagaRow);
      case 'GET /api/financeiro/resultado':
        return resultado(env, regiao, url.searchParams.get('fot_id') ?? '');
      case 'GET /api/logs-atividade':
        return logs(env, url);
      case 'GET /api/planejamento/capacidade':
        return capacidade(env, url, regiao);
      case 'POST /api/cadastro-fot':
        return createFot(env, req, regiao);
      case 'POST /api/financeiro/lancamentos':
        return createLancamento(env, req, regiao);
      default: {
        const ics = /^GET \/ical\/([A-Za-z0-9_-]{43})\.ics$/.exec(route);
        if (ics) return feed(env, ics[1]!);
        const convite = /^PATCH \/api\/convites\/([0-9a-f-]{36})$/.exec(route);
        if (convite) return accept(env, req, convite[1]!);
        const ranked = /^GET \/api\/agenda\/([0-9a-f-]{36})\/candidatos$/.exec(route);
        if (ranked) return candidatos(env, url, ranked[1]!, regiao);
        return json({ error: `no route ${route}` }, 404);
      }
    }
  },
};
