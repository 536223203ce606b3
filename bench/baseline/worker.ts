/**
 * Benchmark baseline (issue 8): the same data as the project's routes, each answered with ONE raw
 * D1 prepared statement, with no framework, validation, authentication or ORM. It is what this
 * runtime can do at best; `npm run bench` reports the project's throughput as a ratio of it.
 *
 * Requests are the very ones sent to the project. The caller's identity (for /api/me and the
 * agenda_viewer's agenda) is read from the access token's payload WITHOUT verifying it: this is a
 * measuring device, never deploy it. `x-regiao` picks the region (default SP). `?limit=&offset=`
 * page the lists (the total comes from `count(*) over ()` in the same statement, as X-Total-Count).
 * Login compares one PBKDF2-SHA256 hash with the stored iterations (100,000), like the project.
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
 * Paged, the total is an uncorrelated scalar subquery over `countFrom` (SQLite evaluates it once).
 */
type ListQuery = { select: string; from: string; countFrom: string; order: string };
async function list(env: Env, url: URL, q: ListQuery, binds: unknown[], map?: (r: Row) => Row): Promise<Response> {
  const limit = url.searchParams.get('limit');
  if (limit === null) {
    const { results } = await env.DB.prepare(`SELECT ${q.select} FROM ${q.from} ORDER BY ${q.order}`)
      .bind(...binds)
      .all<Row>();
    return json(map ? results.map(map) : results);
  }
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const sql = `SELECT (SELECT count(*) FROM ${q.countFrom}) AS _total, ${q.select} FROM ${q.from} ORDER BY ${q.order} LIMIT ? OFFSET ?`;
  const { results } = await env.DB.prepare(sql)
    .bind(...binds, ...binds, Number(limit), offset)
    .all<Row>();
  const total = String(results[0]?._total ?? 0);
  const body = results.map((r) => {
    const { _total, ...rest } = r;
    return map ? map(rest) : rest;
  });
  return json(body, 200, { 'x-total-count': total });
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
  countFrom: 'cadastro_fot f WHERE f.regiao = ?',
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

const agendaQuery = (own: boolean): ListQuery => ({
  select: `a.*,
    json_object('id', f.id, 'fot', f.fot, 'instituicao', f.instituicao, 'cidade', f.cidade, 'estado', f.estado,
      'empresa_nome', e.nome, 'curso_nome', c.nome, 'ano_formatura_label', af.ano_semestre) AS fot,
    json_object('id', t.id, 'nome', t.nome) AS tipo_evento,
    (SELECT json_group_array(json_object('funcao_id', q.funcao_id, 'funcao_nome', fn.nome, 'quantidade', q.quantidade,
        'aceitos', (SELECT count(*) FROM convites cv WHERE cv.agenda_id = q.agenda_id AND cv.funcao_id = q.funcao_id AND cv.status = 'aceito'),
        'pendentes', (SELECT count(*) FROM convites cv WHERE cv.agenda_id = q.agenda_id AND cv.funcao_id = q.funcao_id AND cv.status = 'pendente')))
     FROM agenda_equipe q JOIN funcoes fn ON fn.id = q.funcao_id WHERE q.agenda_id = a.id) AS equipe`,
  from: `agenda a
    JOIN cadastro_fot f ON f.id = a.fot_id
    JOIN empresas e ON e.id = f.empresa_id
    JOIN cursos c ON c.id = f.curso_id
    JOIN anos_formaturas af ON af.id = f.ano_formatura_id
    JOIN tipos_eventos t ON t.id = a.tipo_evento_id
    WHERE a.regiao = ?${own ? ' AND a.user_id = ?' : ''}`,
  countFrom: `agenda a WHERE a.regiao = ?${own ? ' AND a.user_id = ?' : ''}`,
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
  countFrom: 'profissionais p WHERE p.regiao = ?',
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
        const row = await env.DB.prepare(
          'INSERT INTO cursos (id, regiao, nome, nome_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id, nome, regiao, created_at, updated_at',
        )
          .bind(crypto.randomUUID(), regiao, nome, nome.normalize('NFC').trim().toLocaleLowerCase('pt-BR'), now, now)
          .first();
        return json(row, 201);
      }
      default:
        return json({ error: `no route ${route}` }, 404);
    }
  },
};
