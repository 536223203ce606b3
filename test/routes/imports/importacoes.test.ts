// Spreadsheet import and export (docs/decisions.md#d20): templates, validation with spreadsheet line
// numbers, the all-or-nothing apply, matching on re-import, exports that re-import as no change.
import { env } from 'cloudflare:test';
import { and, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../src/app';
import * as schema from '../../../src/db/schema';
import { parseCsv } from '../../../src/lib/csv';
import agendaVirgula from '../../fixtures/agenda-virgula.csv?raw';
import profissionaisBom from '../../fixtures/profissionais-utf8-bom.csv?raw';
import guide from '../../../docs/guide/imports.md?raw';
import equipeCsv from '../../../examples/equipe.csv?raw';
import equipeComErrosCsv from '../../../examples/equipe-com-erros.csv?raw';
import fotWin1252 from '../../fixtures/cadastro-fot-win1252.csv.txt?inline';
import { entriesOf, lastSeq, logEntries } from '../../helpers/activity-log';
import { failingD1 } from '../../helpers/failing-d1';
import {
  db,
  makeAdmin,
  makeCatalog,
  makeFot,
  makeProfissional,
  makeUser,
  nextFot,
  systemCategoryId,
  uniq,
} from '../../helpers/factories';
import { api, expectError, send, UNKNOWN_ID } from '../../helpers/request';
import { keptColumnsAfterAll } from '../../helpers/kept-columns';

// Every team row these tests touched keeps its event's region, date and accepted count (triggers).
keptColumnsAfterAll();

const upload = (token: string, tipo: string, body: BodyInit, regiao = 'SP', contentType = 'text/csv') =>
  api('POST', `/api/importacoes?tipo=${tipo}`, {
    token,
    rawBody: body,
    regiao,
    headers: { 'content-type': contentType },
  });
const aplicar = (token: string, id: string, regiao = 'SP') =>
  api('POST', `/api/importacoes/${id}/aplicar`, { token, regiao });
const exportar = (token: string, tipo: string, query = '', regiao = 'SP') =>
  api('GET', `/api/exportacoes/${tipo}.csv${query}`, { token, regiao });

/** The bytes of a `?inline` asset (a base64 data URL): the Windows-1252 fixture as stored on disk. */
const bytesOf = (dataUrl: string) => Uint8Array.from(atob(dataUrl.split(',')[1]!), (ch) => ch.charCodeAt(0));

/** The data rows of a CSV answer, as cells. */
const rowsOf = (csv: string) => parseCsv(csv).rows.map((r) => r.cells);

let admin: Awaited<ReturnType<typeof makeAdmin>>;
const cat: Record<string, { id: string; label: string }> = {};

beforeAll(async () => {
  admin = await makeAdmin();
  cat.foto = await makeCatalog(schema.funcoes, 'SP', 'Fotógrafo Fixture');
  cat.cine = await makeCatalog(schema.funcoes, 'SP', 'Cinegrafista Fixture');
  cat.tipo = await makeCatalog(schema.tiposEventos, 'SP', 'Colação Fixture');
  cat.empresa = await makeCatalog(schema.empresas, 'SP', 'Formaturas Ação');
  cat.curso = await makeCatalog(schema.cursos, 'SP', 'Educação Física');
  cat.ano = await makeCatalog(schema.anosFormaturas, 'SP', '2027.2 Fixture');
  await makeFot('SP', { fot: 9000101 });
});

describe('GET /api/importacoes/modelos/{tipo}.csv', () => {
  it.each(['profissionais', 'cadastro-fot', 'agenda', 'lancamentos'])(
    'answers the %s header and one example row',
    async (tipo) => {
      const res = await api('GET', `/api/importacoes/modelos/${tipo}.csv`, { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const parsed = parseCsv(res.body);
      expect(parsed.delimiter).toBe(';');
      expect(parsed.header[0]).toBe('id');
      expect(parsed.rows).toHaveLength(1);
      expect(parsed.rows[0]!.cells).toHaveLength(parsed.header.length);
    },
  );

  it('has no route for an unknown kind (404)', async () => {
    expectError(await api('GET', '/api/importacoes/modelos/outros.csv', { token: admin.token }), 404, 'NOT_FOUND');
    expectError(await api('GET', '/api/importacoes/modelos/agenda.txt', { token: admin.token }), 404, 'NOT_FOUND');
  });

  it('is for administrators only', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(await api('GET', '/api/importacoes/modelos/agenda.csv', { token: viewer.token }), 403, 'FORBIDDEN');
    expectError(await api('GET', '/api/importacoes/modelos/agenda.csv'), 401, 'UNAUTHENTICATED');
  });
});

describe('fixture files: encodings, separators, quoted newlines', () => {
  it('UTF-8 with BOM, `;`, CRLF, a quoted newline, names in any case: validated then applied with logins and invitations', async () => {
    const res = await upload(admin.token, 'profissionais', profissionaisBom);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      tipo: 'profissionais',
      status: 'validado',
      total: 2,
      por_acao: { criar: 2, atualizar: 0, sem_alteracao: 0, erro: 0 },
      erros: [],
      aplicado_em: null,
    });
    // Nothing written to the records yet.
    expect(await db.select().from(schema.profissionais).where(eq(schema.profissionais.nome, 'João Conceição'))).toEqual(
      [],
    );
    const since = await lastSeq();
    const applied = await aplicar(admin.token, res.body.id);
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ status: 'aplicado', por_acao: { criar: 2 } });
    expect(applied.body.aplicado_em).toBeTruthy();

    const rows = await db
      .select()
      .from(schema.profissionais)
      .where(inArray(schema.profissionais.email, ['joao.fixture@example.com', 'marcia.fixture@example.com']));
    const joao = rows.find((r) => r.nome === 'João Conceição')!;
    const marcia = rows.find((r) => r.nome === 'Márcia Ávila')!;
    expect(joao).toMatchObject({
      regiao: 'SP',
      funcaoProfissionalId: cat.foto!.id,
      cpfCnpjTitular: '52998224725',
      uf: 'SP',
      equipamentos: 'Canon R6;\r\n24-70mm',
      carroDisponivel: true,
      temEstudio: false,
      qtdEstudio: 0,
      aprovado: true,
    });
    expect(marcia).toMatchObject({ funcaoProfissionalId: cat.cine!.id, carroDisponivel: false, temEstudio: true });
    // Each got an active login, its function held, an invitation token and its e-mail in the outbox.
    for (const p of [joao, marcia]) {
      const [u] = await db.select().from(schema.users).where(eq(schema.users.id, p.usuarioId!));
      expect(u).toMatchObject({ role: 'profissional', ativo: true, email: p.email });
      const held = await db
        .select()
        .from(schema.profissionalFuncoes)
        .where(eq(schema.profissionalFuncoes.profissionalId, p.id));
      expect(held.map((h) => h.funcaoId)).toEqual([p.funcaoProfissionalId]);
      const tokens = await db
        .select()
        .from(schema.passwordResetTokens)
        .where(eq(schema.passwordResetTokens.userId, p.usuarioId!));
      expect(tokens).toHaveLength(1);
      expect(tokens[0]!.tipo).toBe('convite');
      const mails = await db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.para, p.email!));
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ tipo: 'convite_acesso', status: 'pendente', dados: { nome: p.nome } });
      expect(mails[0]!.segredo).toMatch(/^v1\./);
    }
    // The activity log: one entry for the import, one per record and per login (bank fields masked).
    const entries = (await logEntries({ ator_id: admin.id })).filter((e) => e.seq > since);
    expect(entries.filter((e) => e.acao === 'importacoes.apply')).toHaveLength(1);
    const created = entries.filter((e) => e.acao === 'profissionais.create');
    expect(created.map((e) => e.entidade_id).sort()).toEqual([joao.id, marcia.id].sort());
    const joaoEntry = created.find((e) => e.entidade_id === joao.id)!;
    expect(joaoEntry.dados.cpf_cnpj_titular).toEqual({ depois: '***4725' });
    expect(joaoEntry.dados.importacao_id).toEqual({ depois: res.body.id });
    expect(entries.filter((e) => e.acao === 'users.create')).toHaveLength(2);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  });

  it('Windows-1252 with `;`, Brazilian money and catalog names without accents in the case typed', async () => {
    const bytes = bytesOf(fotWin1252);
    expect(() => new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)).toThrow();
    const res = await upload(admin.token, 'cadastro-fot', bytes);
    expect(res.body).toMatchObject({ status: 'validado', total: 2, por_acao: { criar: 2, erro: 0 } });
    expect((await aplicar(admin.token, res.body.id)).status).toBe(200);
    const fots = await db
      .select()
      .from(schema.cadastroFot)
      .where(inArray(schema.cadastroFot.fot, [9000201, 9000202]));
    const [a, b] = [fots.find((f) => f.fot === 9000201)!, fots.find((f) => f.fot === 9000202)!];
    expect(a).toMatchObject({
      instituicao: 'Universidade São João',
      empresaId: cat.empresa!.id,
      cursoId: cat.curso!.id,
      anoFormaturaId: cat.ano!.id,
      gastosCaptacaoCentavos: 123456,
      preVenda: true,
    });
    expect(b).toMatchObject({
      instituicao: 'Fundação Pública – Ênfase €',
      cidade: 'Jundiaí',
      estado: 'SP',
      gastosCaptacaoCentavos: 123450,
      preVenda: false,
    });
  });

  it('`,` with a quoted newline: errors carry the line a spreadsheet shows and their column', async () => {
    const res = await upload(admin.token, 'agenda', agendaVirgula);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'com_erros', total: 3, por_acao: { criar: 1, erro: 2 } });
    const at = (linha: number) => res.body.erros.filter((e: { linha: number }) => e.linha === linha);
    expect(at(2)).toEqual([]);
    // Line 2 spans lines 2-4 (a quoted field with two newlines); line 6 is blank.
    expect(
      at(5)
        .map((e: { coluna: string }) => e.coluna)
        .sort(),
    ).toEqual(['horario', 'pre_venda', 'qtd_formandos']);
    expect(at(5).every((e: { code: string }) => e.code === 'VALIDATION_FAILED')).toBe(true);
    expect(at(7)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ coluna: 'fot', code: 'NOT_FOUND' }),
        expect.objectContaining({ coluna: 'tipo_evento', code: 'NOT_FOUND' }),
        expect.objectContaining({ coluna: 'data_evento', code: 'VALIDATION_FAILED' }),
      ]),
    );
    // 31/02/2027 is shaped right but no day: the sentence says so (issue 32 item 14).
    expect(at(7).find((e: { coluna: string }) => e.coluna === 'data_evento').error).toBe(
      'data_evento: deve ser uma data AAAA-MM-DD (a data 2027-02-31 não existe)',
    );
  });
});

const profHeader = 'nome;email;funcao_profissional;cpf_cnpj_titular;carro_disponivel;qtd_estudio;uf';

describe('POST /api/importacoes: validation', () => {
  it('reports each bad cell with the single-record rules, and 409 IMPORT_HAS_ERRORS on apply; erros.csv lists them', async () => {
    const csv = [
      profHeader,
      ';a@example.com;;;;;',
      `Bia;nao-e-email;Função Inexistente;111.111.111-11;talvez;-1;XX`,
      `Caio;caio-${uniq()}@example.com;${cat.foto!.id};;sim;2;MG`,
    ].join('\n');
    const res = await upload(admin.token, 'profissionais', csv);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'com_erros', total: 3, por_acao: { criar: 1, erro: 2 } });
    const cols = (linha: number) =>
      res.body.erros.filter((e: { linha: number }) => e.linha === linha).map((e: { coluna: string }) => e.coluna);
    expect(cols(2)).toEqual(['nome']);
    expect(cols(3).sort()).toEqual(
      ['carro_disponivel', 'cpf_cnpj_titular', 'email', 'funcao_profissional', 'qtd_estudio', 'uf'].sort(),
    );
    expect(res.body.erros).toContainEqual({
      linha: 2,
      coluna: 'nome',
      code: 'VALIDATION_FAILED',
      error: 'nome: é obrigatório',
    });
    expect(res.body.erros).toContainEqual({
      linha: 3,
      coluna: 'cpf_cnpj_titular',
      code: 'VALIDATION_FAILED',
      error: 'cpf_cnpj_titular: deve ser um CPF ou CNPJ válido',
    });
    expectError(await aplicar(admin.token, res.body.id), 409, 'IMPORT_HAS_ERRORS');

    const got = await api('GET', `/api/importacoes/${res.body.id}`, { token: admin.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);

    const errs = await api('GET', `/api/importacoes/${res.body.id}/erros.csv`, { token: admin.token });
    expect(errs.status).toBe(200);
    expect(errs.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const parsed = parseCsv(errs.body);
    expect(parsed.header).toEqual(['linha', 'coluna', 'code', 'error']);
    expect(parsed.rows).toHaveLength(res.body.erros.length);
    expect(parsed.rows[0]!.cells).toEqual(['2', 'nome', 'VALIDATION_FAILED', 'nome: é obrigatório']);
  });

  it('accepts `,` with YYYY-MM-DD dates, `1234.56` money and true/false/1/0', async () => {
    const fot = nextFot();
    const csv = `fot,empresa,curso,ano_formatura,gastos_captacao,pre_venda\n${fot},${cat.empresa!.label},${cat.curso!.label},${cat.ano!.label},"1234.56",1\n`;
    const res = await upload(admin.token, 'cadastro-fot', csv);
    expect(res.body).toMatchObject({ status: 'validado', por_acao: { criar: 1 } });
    await aplicar(admin.token, res.body.id);
    const [row] = await db.select().from(schema.cadastroFot).where(eq(schema.cadastroFot.fot, fot));
    expect(row).toMatchObject({ gastosCaptacaoCentavos: 123456, preVenda: true });
  });

  it.each([
    ['an unknown column', 'nome;apelido\nMaria;Mari', 'cabeçalho: coluna desconhecida "apelido"'],
    ['a missing required column', 'email\nmaria@example.com', 'cabeçalho: falta a coluna "nome"'],
    ['a repeated column', 'nome;nome\nA;B', 'cabeçalho: coluna "nome" repetida'],
    ['no data lines', 'nome\n\n', 'o arquivo não tem linhas de dados'],
    ['an empty body', '', 'arquivo vazio: a primeira linha deve ser o cabeçalho'],
  ])('400 VALIDATION_FAILED for %s', async (_, csv, error) => {
    const res = await upload(admin.token, 'profissionais', csv);
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toContain(error);
  });

  it('400 for a body that is not CSV, an unknown or missing tipo, an unknown region', async () => {
    expectError(
      await upload(admin.token, 'profissionais', '{"nome":"x"}', 'SP', 'application/json'),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await upload(admin.token, 'outros', 'nome\nA'), 400, 'VALIDATION_FAILED');
    expectError(
      await api('POST', '/api/importacoes', {
        token: admin.token,
        rawBody: 'nome\nA',
        headers: { 'content-type': 'text/csv' },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await upload(admin.token, 'profissionais', 'nome\nA', 'XX'), 400, 'INVALID_REGION');
  });

  it('413 PAYLOAD_TOO_LARGE over 1 MiB or 5,000 lines', async () => {
    const big = `nome;observacao\n${`Maria;${'x'.repeat(1000)}\n`.repeat(1100)}`;
    expectError(await upload(admin.token, 'profissionais', big), 413, 'PAYLOAD_TOO_LARGE');
    const many = `nome\n${'Maria\n'.repeat(5001)}`;
    const res = await upload(admin.token, 'profissionais', many);
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(res.body.error).toBe('o arquivo tem 5001 linhas; o máximo é 5000');
  });

  it('lists at most 2,000 errors, counting every line with one; a long cell is cut in the message', async () => {
    const csv = `nome;uf;funcao_profissional\n${';XX;Nenhuma\n'.repeat(1100)}Ana;SP;${'y'.repeat(300)}\n`;
    const res = await upload(admin.token, 'profissionais', csv);
    expect(res.body.por_acao.erro).toBe(1101);
    expect(res.body.erros).toHaveLength(2000);
    const last = await upload(admin.token, 'profissionais', `nome;funcao_profissional\nAna;${'y'.repeat(300)}`);
    expect(last.body.erros[0].error).toBe(`funcao_profissional: "${'y'.repeat(57)}..." não encontrado na região SP`);
  });

  it('an unclosed quote is an error of the line where it opened', async () => {
    const res = await upload(admin.token, 'profissionais', 'nome;observacao\nAna;ok\nBeto;"sem fim\nCarla;x\n');
    expect(res.body.status).toBe('com_erros');
    expect(res.body.erros).toContainEqual({
      linha: 3,
      coluna: null,
      code: 'VALIDATION_FAILED',
      error: 'aspas sem fechamento',
    });
  });

  it('is for administrators', async () => {
    const owner = await makeUser({ role: 'EVENT_OWNER' });
    expectError(await upload(owner.token, 'profissionais', 'nome\nA'), 403, 'FORBIDDEN');
    const bo = await makeUser({ role: 'BUSINESS_OWNER' });
    expect((await upload(bo.token, 'profissionais', `nome\n${uniq('Bo')}`)).status).toBe(201);
  });
});

describe('matching: a re-import updates instead of duplicating', () => {
  it('professionals by CPF/CNPJ, else e-mail; unchanged lines change nothing', async () => {
    const cpf = '39053344705';
    const email = `${uniq('m')}@example.com`;
    const byCpf = await makeProfissional('SP', { cpfCnpjTitular: cpf, nome: 'Pelo CPF' });
    const byEmail = await makeProfissional('SP', { email, nome: 'Pelo Email' });
    const same = await makeProfissional('SP', { email: `${uniq('s')}@example.com`, nome: 'Igual', uf: 'MG' });
    const csv = [
      'nome;email;cpf_cnpj_titular;uf',
      `Pelo CPF Novo;;390.533.447-05;`,
      `Pelo Email;${email.toUpperCase()};;RJ`,
      `Igual;${same.email};;MG`,
    ].join('\n');
    const res = await upload(admin.token, 'profissionais', csv);
    expect(res.body).toMatchObject({
      status: 'validado',
      por_acao: { criar: 0, atualizar: 2, sem_alteracao: 1, erro: 0 },
    });
    const since = await lastSeq();
    expect((await aplicar(admin.token, res.body.id)).status).toBe(200);
    const [a] = await db.select().from(schema.profissionais).where(eq(schema.profissionais.id, byCpf.id));
    const [b] = await db.select().from(schema.profissionais).where(eq(schema.profissionais.id, byEmail.id));
    expect(a).toMatchObject({ nome: 'Pelo CPF Novo', usuarioId: null });
    expect(b).toMatchObject({ uf: 'RJ', usuarioId: null });
    const upd = (await entriesOf(byEmail.id, 'profissionais.update')).filter((e) => e.seq > since);
    expect(upd).toHaveLength(1);
    expect(upd[0]!.dados.uf).toEqual({ antes: null, depois: 'RJ' });
    expect((await entriesOf(same.id)).filter((e) => e.seq > since)).toEqual([]);
  });

  it("professionals: regime_fiscal and tipo_chave_pix by the routes' rule, the key stored normalized; a stored pair left as it is is not checked", async () => {
    const cpf = '12345678909';
    const typed = await makeProfissional('SP', {
      cpfCnpjTitular: cpf,
      contaPix: cpf,
      tipoChavePix: 'cpf',
      regimeFiscal: 'pj',
    });
    const legacy = await makeProfissional('SP', { email: `${uniq('leg')}@example.com`, contaPix: 'chave antiga' });
    const bad = await upload(
      admin.token,
      'profissionais',
      [
        'nome;email;cpf_cnpj_titular;conta_pix;tipo_chave_pix;regime_fiscal',
        `${typed.nome};;${cpf};;email;`,
        'Sem tipo;;;chave qualquer;;mei',
        'Regime ruim;;;;;clt',
        'Telefone;;;11987654321;telefone;',
      ].join('\n'),
    );
    expect(bad.body.erros).toEqual([
      {
        linha: 2,
        coluna: 'conta_pix',
        code: 'VALIDATION_FAILED',
        error: 'conta_pix: é obrigatória com tipo_chave_pix email',
      },
      // A key without a type gets the type it shows (issue 32 item 1): refused only when it shows none.
      expect.objectContaining({
        linha: 3,
        coluna: 'tipo_chave_pix',
        code: 'VALIDATION_FAILED',
        error: expect.stringContaining('tipo_chave_pix: não foi possível deduzir o tipo da chave'),
      }),
      expect.objectContaining({ linha: 4, coluna: 'regime_fiscal', code: 'VALIDATION_FAILED' }),
      expect.objectContaining({
        linha: 5,
        coluna: 'conta_pix',
        error: expect.stringContaining('não é um telefone +55'),
      }),
    ]);
    const res = await upload(
      admin.token,
      'profissionais',
      [
        'nome;email;cpf_cnpj_titular;conta_pix;tipo_chave_pix;regime_fiscal',
        `${typed.nome};;${cpf};Maria@Example.com;email;`,
        `${legacy.nome};${legacy.email};;chave antiga;;autonomo_rpa`,
        'Nova Pix;;;+55 (11) 98765-4321;telefone;',
        'Pix Sem Tipo;;;11.222.333/0001-81;;',
      ].join('\n'),
    );
    expect(res.body).toMatchObject({ status: 'validado', por_acao: { criar: 2, atualizar: 2, erro: 0 } });
    expect((await aplicar(admin.token, res.body.id)).status).toBe(200);
    const [a] = await db.select().from(schema.profissionais).where(eq(schema.profissionais.id, typed.id));
    expect(a).toMatchObject({ contaPix: 'maria@example.com', tipoChavePix: 'email', regimeFiscal: 'pj' });
    const [b] = await db.select().from(schema.profissionais).where(eq(schema.profissionais.id, legacy.id));
    expect(b).toMatchObject({ contaPix: 'chave antiga', tipoChavePix: null, regimeFiscal: 'autonomo_rpa' });
    const [c] = await db.select().from(schema.profissionais).where(eq(schema.profissionais.nome, 'Nova Pix'));
    expect(c).toMatchObject({ contaPix: '+5511987654321', tipoChavePix: 'telefone', regimeFiscal: 'mei' });
    const [d] = await db.select().from(schema.profissionais).where(eq(schema.profissionais.nome, 'Pix Sem Tipo'));
    expect(d).toMatchObject({ contaPix: '11222333000181', tipoChavePix: 'cnpj' });
  });

  it('a key twice in one file, an e-mail with an account, a FOT of another region: errors of their lines', async () => {
    const taken = await makeUser();
    const elsewhere = await makeFot('MG');
    const prof = await upload(
      admin.token,
      'profissionais',
      ['nome;email;cpf_cnpj_titular', 'A;;246.813.579-28', 'B;;24681357928', `C;${taken.email};`].join('\n'),
    );
    expect(prof.body.erros).toEqual([
      {
        linha: 3,
        coluna: 'cpf_cnpj_titular',
        code: 'CONFLICT',
        error: 'cpf_cnpj_titular: CPF/CNPJ repetido no arquivo (linha 2)',
      },
      { linha: 4, coluna: 'email', code: 'EMAIL_TAKEN', error: 'email: já existe uma conta com este e-mail' },
    ]);
    const fot = await upload(
      admin.token,
      'cadastro-fot',
      `fot;empresa;curso;ano_formatura\n${elsewhere.fot};${cat.empresa!.label};${cat.curso!.label};${cat.ano!.label}`,
    );
    expect(fot.body.erros).toEqual([
      { linha: 2, coluna: 'fot', code: 'DUPLICATE_FOT', error: 'fot: este número de FOT já existe em outra região' },
    ]);
    const other = await upload(admin.token, 'profissionais', `id;nome\n${UNKNOWN_ID};X\nnao-uuid;Y`);
    expect(other.body.erros).toEqual([
      { linha: 2, coluna: 'id', code: 'NOT_FOUND', error: 'id: registro não encontrado na região SP' },
      { linha: 3, coluna: 'id', code: 'INVALID_ID', error: 'id: deve ser um UUID' },
    ]);
  });

  it('agenda: an IBGE code that names no city is an error of its line in the preview, never a failed apply', async () => {
    const fot = await makeFot('SP');
    const head = 'fot;tipo_evento;data_evento;cidade_ibge';
    const line = (code: string) => `${fot.fot};${cat.tipo!.label};01/03/2027;${code}`;
    const res = await upload(admin.token, 'agenda', [head, line('3550308'), line('9999999'), line('')].join('\n'));
    expect(res.status).toBe(201);
    expect(res.body.por_acao).toEqual({ criar: 2, atualizar: 0, sem_alteracao: 0, erro: 1 });
    expect(res.body.erros).toEqual([
      { linha: 3, coluna: 'cidade_ibge', code: 'NOT_FOUND', error: 'cidade_ibge: cidade não encontrada' },
    ]);
  });

  it('agenda by chave_externa (lines without it always create); FOT records by number', async () => {
    const fot = await makeFot('SP');
    const chave = uniq('EV');
    const line = (data: string, withKey = true) => `${withKey ? chave : ''};${fot.fot};${cat.tipo!.label};${data}`;
    const head = 'chave_externa;fot;tipo_evento;data_evento';
    const first = await upload(admin.token, 'agenda', [head, line('01/03/2027'), line('02/03/2027', false)].join('\n'));
    expect(first.body.por_acao).toEqual({ criar: 2, atualizar: 0, sem_alteracao: 0, erro: 0 });
    await aplicar(admin.token, first.body.id);
    // The keyed event gets a published team: a re-import that moves the event moves its listing (a kept column).
    const [keyed] = await db.select().from(schema.agenda).where(eq(schema.agenda.chaveExterna, chave));
    const team = await api('PUT', `/api/agenda/${keyed!.id}/equipe`, {
      token: admin.token,
      body: [{ funcao_id: cat.foto!.id, quantidade: 2, publicar: true }],
    });
    expect(team.status).toBe(200);
    const again = await upload(admin.token, 'agenda', [head, line('05/03/2027'), line('02/03/2027', false)].join('\n'));
    expect(again.body.por_acao).toEqual({ criar: 1, atualizar: 1, sem_alteracao: 0, erro: 0 });
    await aplicar(admin.token, again.body.id);
    const events = await db.select().from(schema.agenda).where(eq(schema.agenda.fotId, fot.id));
    expect(events).toHaveLength(3);
    expect(events.filter((e) => e.chaveExterna === chave).map((e) => e.dataEvento)).toEqual(['2027-03-05']);
    const places = await db.select().from(schema.agendaEquipe).where(eq(schema.agendaEquipe.agendaId, keyed!.id));
    expect(places.map((q) => [q.regiao, q.dataEvento, q.aceitos])).toEqual([['SP', '2027-03-05', 0]]);
    expect(events.every((e) => e.userId === admin.id)).toBe(true);

    const fotLine = `${fot.fot};${fot.refs.empresa.label};${fot.refs.curso.label};${fot.refs.ano.label};Nova`;
    const fotRes = await upload(admin.token, 'cadastro-fot', `fot;empresa;curso;ano_formatura;instituicao\n${fotLine}`);
    expect(fotRes.body.por_acao).toEqual({ criar: 0, atualizar: 1, sem_alteracao: 0, erro: 0 });
    await aplicar(admin.token, fotRes.body.id);
    const [f] = await db.select().from(schema.cadastroFot).where(eq(schema.cadastroFot.id, fot.id));
    expect(f!.instituicao).toBe('Nova');
  });
});

describe('chave_externa on the agenda routes', () => {
  it('is accepted on create and update, shown, and unique per region (409 CONFLICT)', async () => {
    const fot = await makeFot('SP');
    const chave = uniq('API');
    const body = {
      fot_id: fot.id,
      tipo_evento_id: cat.tipo!.id,
      data_evento: '2027-05-01',
      chave_externa: ` ${chave} `,
    };
    const created = await api('POST', '/api/agenda', { token: admin.token, body });
    expect(created.status).toBe(201);
    expect(created.body.chave_externa).toBe(chave);
    const dup = await api('POST', '/api/agenda', { token: admin.token, body });
    expectError(dup, 409, 'CONFLICT');
    expect(dup.body.error).toBe('chave_externa: já existe um evento com esta chave nesta região');
    // The same key in another region is another event.
    const mgFot = await makeFot('MG');
    const mgTipo = await makeCatalog(schema.tiposEventos, 'MG');
    const mg = await api('POST', '/api/agenda', {
      token: admin.token,
      regiao: 'MG',
      body: { ...body, fot_id: mgFot.id, tipo_evento_id: mgTipo.id },
    });
    expect(mg.status).toBe(201);
    const upd = await api('PUT', `/api/agenda/${created.body.id}`, { token: admin.token, body: { chave_externa: '' } });
    expect(upd.body.chave_externa).toBeNull();
  });
});

describe('POST /api/importacoes/{id}/aplicar', () => {
  const fotFile = (n = 2) =>
    `fot;empresa;curso;ano_formatura\n${Array.from({ length: n }, () => `${nextFot()};${cat.empresa!.label};${cat.curso!.label};${cat.ano!.label}`).join('\n')}`;

  it('400 for an invalid id, 404 unknown or of another region, 409 ALREADY_APPLIED the second time', async () => {
    expectError(await aplicar(admin.token, 'nao-uuid'), 400, 'INVALID_ID');
    expectError(await aplicar(admin.token, UNKNOWN_ID), 404, 'NOT_FOUND');
    const res = await upload(admin.token, 'cadastro-fot', fotFile());
    expectError(await aplicar(admin.token, res.body.id, 'MG'), 404, 'NOT_FOUND');
    expectError(
      await api('GET', `/api/importacoes/${res.body.id}`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('GET', `/api/importacoes/${res.body.id}/erros.csv`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    expect((await aplicar(admin.token, res.body.id)).status).toBe(200);
    expectError(await aplicar(admin.token, res.body.id), 409, 'ALREADY_APPLIED');
    const got = await api('GET', `/api/importacoes/${res.body.id}`, { token: admin.token });
    expect(got.body.status).toBe('aplicado');
    const wrongRole = await makeUser({ role: 'RESEARCHER' });
    expectError(await aplicar(wrongRole.token, res.body.id), 403, 'FORBIDDEN');
  });

  it('5 parallel applies: exactly one writes', async () => {
    const res = await upload(admin.token, 'profissionais', `nome;email\nParalelo;${uniq('par')}@example.com`);
    const results = await Promise.all(Array.from({ length: 5 }, () => aplicar(admin.token, res.body.id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expectError(r, 409, 'ALREADY_APPLIED');
    const created = await entriesOf(res.body.id, 'importacoes.apply');
    expect(created).toHaveLength(1);
    const rows = await db.select().from(schema.profissionais).where(eq(schema.profissionais.nome, 'Paralelo'));
    expect(rows).toHaveLength(1);
    const mails = await db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.para, rows[0]!.email!));
    expect(mails).toHaveLength(1);
  });

  it('409 CONFLICT and nothing written when the data changed since the validation', async () => {
    // A catalog the file names is deleted: its foreign key fails the batch.
    const curso = await makeCatalog(schema.cursos, 'SP');
    const fot = nextFot();
    const res = await upload(
      admin.token,
      'cadastro-fot',
      `fot;empresa;curso;ano_formatura\n${fot};${cat.empresa!.label};${curso.label};${cat.ano!.label}`,
    );
    await db.delete(schema.cursos).where(eq(schema.cursos.id, curso.id));
    expectError(await aplicar(admin.token, res.body.id), 409, 'CONFLICT');
    expect(await db.select().from(schema.cadastroFot).where(eq(schema.cadastroFot.fot, fot))).toEqual([]);
    expect((await api('GET', `/api/importacoes/${res.body.id}`, { token: admin.token })).body.status).toBe('validado');

    // A record to update is deleted.
    const prof = await makeProfissional('SP', { cpfCnpjTitular: '11144477735' });
    const upd = await upload(admin.token, 'profissionais', `nome;cpf_cnpj_titular\nOutro nome;11144477735`);
    expect(upd.body.por_acao.atualizar).toBe(1);
    await db.delete(schema.profissionais).where(eq(schema.profissionais.id, prof.id));
    expectError(await aplicar(admin.token, upd.body.id), 409, 'CONFLICT');

    // A professional to create now exists (created meanwhile through the API).
    const email = `${uniq('race')}@example.com`;
    const cre = await upload(admin.token, 'profissionais', `nome;email\nCorrida;${email}`);
    await makeProfissional('SP', { email });
    expectError(await aplicar(admin.token, cre.body.id), 409, 'CONFLICT');
    expect(await db.select().from(schema.users).where(eq(schema.users.email, email))).toEqual([]);
  });

  it('all or nothing: the batch failing at each of its statements writes nothing and keeps the import validado', async () => {
    const email = `${uniq('atom')}@example.com`;
    const csv = `nome;email;funcao_profissional\nAtômico;${email};${cat.foto!.label}`;
    const probe = failingD1(env.DB, {
      batch: (s) => s.some((q) => q.startsWith('update "importacoes" set "status" = ?')),
      times: 0,
    });
    const first = await upload(admin.token, 'profissionais', csv);
    await createApp().request(
      `/api/importacoes/${first.body.id}/aplicar`,
      { method: 'POST', headers: { authorization: `Bearer ${admin.token}` } },
      { ...env, DB: probe.db },
    );
    const applyBatch = probe.batches.find((s) => s.some((q) => q.startsWith('update "importacoes" set "status" = ?')))!;
    expect(applyBatch.length).toBeGreaterThanOrEqual(10);
    for (let statement = 0; statement < applyBatch.length; statement++) {
      const mail = `${uniq('atom')}@example.com`;
      const res = await upload(
        admin.token,
        'profissionais',
        `nome;email;funcao_profissional\nAtômico ${statement};${mail};${cat.foto!.label}`,
      );
      const failing = failingD1(env.DB, {
        batch: (s) => s.some((q) => q.startsWith('update "importacoes" set "status" = ?')),
        statement,
      });
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const out = await createApp().request(
        `/api/importacoes/${res.body.id}/aplicar`,
        { method: 'POST', headers: { authorization: `Bearer ${admin.token}` } },
        { ...env, DB: failing.db },
      );
      log.mockRestore();
      expect(failing.injected, `statement ${statement}`).toBe(1);
      expect(out.status).toBe(500);
      expect(await db.select().from(schema.users).where(eq(schema.users.email, mail))).toEqual([]);
      expect(await db.select().from(schema.profissionais).where(eq(schema.profissionais.email, mail))).toEqual([]);
      expect(await db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.para, mail))).toEqual([]);
      expect(await entriesOf(res.body.id, 'importacoes.apply')).toEqual([]);
      const [imp] = await db.select().from(schema.importacoes).where(eq(schema.importacoes.id, res.body.id));
      expect(imp!.status).toBe('validado');
      const staged = await db
        .select()
        .from(schema.importacaoLinhas)
        .where(eq(schema.importacaoLinhas.importacaoId, res.body.id));
      expect(staged).toHaveLength(1);
      // And it still applies afterwards.
      expect((await aplicar(admin.token, res.body.id)).status).toBe(200);
    }
  });
});

describe('GET /api/exportacoes/{tipo}.csv', () => {
  it('exports the region in the import format (formula-escaped), filtered by de/ate', async () => {
    const fot = await makeFot('SP');
    const mgFot = await makeFot('MG');
    const chave = uniq('EXP');
    await db.insert(schema.agenda).values([
      {
        regiao: 'SP',
        fotId: fot.id,
        tipoEventoId: cat.tipo!.id,
        dataEvento: '2030-01-10',
        chaveExterna: chave,
        localEvento: '=SOMA(A1)',
      },
      { regiao: 'SP', fotId: fot.id, tipoEventoId: cat.tipo!.id, dataEvento: '2030-02-10' },
      {
        regiao: 'MG',
        fotId: mgFot.id,
        tipoEventoId: (await makeCatalog(schema.tiposEventos, 'MG')).id,
        dataEvento: '2030-01-10',
      },
    ]);
    const res = await exportar(admin.token, 'agenda', '?de=2030-01-01&ate=2030-01-31');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    // A UTF-8 BOM first (Excel reads the accents right); Response.text() drops it.
    const raw = await send('GET', '/api/exportacoes/agenda.csv', {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = parseCsv(res.body);
    const rows = parsed.rows.map((r) => Object.fromEntries(parsed.header.map((h, i) => [h, r.cells[i]])));
    const mine = rows.filter((r) => r.fot === String(fot.fot));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      chave_externa: chave,
      data_evento: '10/01/2030',
      local_evento: "'=SOMA(A1)",
      tipo_evento: cat.tipo!.label,
    });
    expect(rows.some((r) => r.fot === String(mgFot.fot))).toBe(false);
    // Re-imported, the export changes nothing (the escaped formula reads back as the text it was).
    const back = await upload(admin.token, 'agenda', res.body);
    expect(back.body).toMatchObject({ status: 'validado', por_acao: { criar: 0, atualizar: 0, erro: 0 } });
    expectError(await exportar(admin.token, 'agenda', '?de=2030-02-01&ate=2030-01-01'), 400, 'VALIDATION_FAILED');
    expectError(await exportar(admin.token, 'agenda', '?de=01/02/2030'), 400, 'VALIDATION_FAILED');
    expectError(await exportar(admin.token, 'outros'), 400, 'INVALID_ID');
  });

  it('every kind: export → import reports no change', async () => {
    const categoria = { id: crypto.randomUUID(), regiao: 'SP', label: uniq('Venda'), tipo: 'receita' as const };
    await db.insert(schema.categoriasFinanceiras).values({ ...categoria, labelKey: categoria.label.toLowerCase() });
    await db.insert(schema.lancamentos).values({
      regiao: 'SP',
      tipo: 'receita',
      categoriaId: categoria.id,
      descricao: '=fórmula; com "aspas"',
      valorCentavos: 123456789,
      vencimento: '2027-06-30',
      status: 'estornado',
      pagoEm: '2027-06-01',
    });
    for (const tipo of ['profissionais', 'cadastro-fot', 'agenda', 'lancamentos']) {
      const exp = await exportar(admin.token, tipo);
      expect(exp.status).toBe(200);
      const back = await upload(admin.token, tipo, exp.body);
      expect(back.body, tipo).toMatchObject({ status: 'validado', por_acao: { criar: 0, atualizar: 0, erro: 0 } });
      expect(back.body.por_acao.sem_alteracao).toBe(rowsOf(exp.body).length);
    }
  });
});

describe('property: any valid set of rows → import, apply → export → import changes nothing', () => {
  const text = (max: number) =>
    fc
      .string({ unit: fc.constantFrom(...'aáãçÉz ;,"\'=+-@\n0123456789'.split('')), maxLength: max })
      .map((s) => s.trim())
      .filter((s) => !/[\n]/.test(s) || s.length > 0);
  const row = fc.record({
    nome: text(20).filter((s) => s.length > 0),
    whatsapp: text(15),
    observacao: fc.string({ unit: fc.constantFrom(...'ab; ,"\n=-çã'.split('')), maxLength: 30 }).map((s) => s.trim()),
    carro: fc.constantFrom('sim', 'não', 'true', 'false', '1', '0', ''),
    qtd: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
    funcao: fc.constantFrom('foto', 'cine', ''),
    uf: fc.constantFrom('SP', 'mg', 'Rj', ''),
    withEmail: fc.boolean(),
  });
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;

  it('holds for generated professionals (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 8 }), fc.constantFrom(';', ','), async (rows, sep) => {
        const regiao = 'MG';
        const funcs = {
          foto: await makeCatalog(schema.funcoes, regiao),
          cine: await makeCatalog(schema.funcoes, regiao),
        };
        const marker = uniq('prop');
        const lines = rows.map((r, i) =>
          [
            q(`${r.nome} ${marker}-${i}`),
            r.withEmail ? `${marker}-${i}@example.com` : '',
            r.funcao ? q(funcs[r.funcao as 'foto' | 'cine'].label.toUpperCase()) : '',
            q(r.whatsapp),
            q(r.observacao),
            r.carro,
            r.qtd === null ? '' : String(r.qtd),
            r.uf,
            // Unique keys: a CPF-less line matches by e-mail or always creates.
          ].join(sep),
        );
        const csv = [
          [
            'nome',
            'email',
            'funcao_profissional',
            'whatsapp',
            'observacao',
            'carro_disponivel',
            'qtd_estudio',
            'uf',
          ].join(sep),
          ...lines,
        ].join('\r\n');
        const imp = await upload(admin.token, 'profissionais', csv, regiao);
        expect(imp.body.erros).toEqual([]);
        expect((await aplicar(admin.token, imp.body.id, regiao)).status).toBe(200);
        const exp = await exportar(admin.token, 'profissionais', '', regiao);
        const back = await upload(admin.token, 'profissionais', exp.body, regiao);
        expect(back.body).toMatchObject({ status: 'validado', por_acao: { criar: 0, atualizar: 0, erro: 0 } });
        const ours = await db
          .select()
          .from(schema.profissionais)
          .where(and(eq(schema.profissionais.regiao, regiao)));
        expect(ours.filter((p) => p.nome.includes(marker))).toHaveLength(rows.length);
      }),
      { numRuns: 12 },
    );
  });
});

describe('docs/guide/imports.md and examples/', () => {
  it('its example file of each kind is read with the header of the template, and validates once its catalogs exist', async () => {
    const section = guide;
    const blocks = [...section.matchAll(/```csv\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(4);
    const regiao = 'MG';
    await makeCatalog(schema.funcoes, regiao, 'Fotógrafo');
    await makeCatalog(schema.empresas, regiao, 'Alfa Formaturas');
    await makeCatalog(schema.cursos, regiao, 'Medicina');
    await makeCatalog(schema.anosFormaturas, regiao, '2027.2');
    await makeCatalog(schema.tiposEventos, regiao, 'Colação de grau');
    const [prof, fot, lanc, ag] = blocks as [string, string, string, string];
    await db
      .insert(schema.categoriasFinanceiras)
      .values({ regiao, label: 'Contrato', labelKey: 'contrato', tipo: 'receita' })
      .onConflictDoNothing();
    for (const [tipo, csv] of [
      ['profissionais', prof],
      ['cadastro-fot', fot],
      ['lancamentos', lanc],
    ] as const) {
      const tpl = await api('GET', `/api/importacoes/modelos/${tipo}.csv`, { token: admin.token });
      expect(parseCsv(csv).header).toEqual(parseCsv(tpl.body).header);
      const res = await upload(admin.token, tipo, csv, regiao);
      expect(res.body, tipo).toMatchObject({ status: 'validado', por_acao: { criar: 1, erro: 0 } });
      expect((await aplicar(admin.token, res.body.id, regiao)).status).toBe(200);
    }
    const res = await upload(admin.token, 'agenda', ag, regiao);
    expect(res.body).toMatchObject({ status: 'validado', por_acao: { criar: 1, erro: 0 } });
  });

  it('examples/equipe.csv validates and applies, and examples/equipe-com-erros.csv lists its errors (the guide runs both)', async () => {
    const regiao = 'MG';
    // 'Fotógrafo' may exist already in MG (the test above): the file names functions by name
    await makeCatalog(schema.funcoes, regiao, 'Fotógrafo').catch(() => undefined);
    await makeCatalog(schema.funcoes, regiao, 'Cinegrafista').catch(() => undefined);
    const res = await upload(admin.token, 'profissionais', equipeCsv, regiao);
    expect(res.body).toMatchObject({ status: 'validado', total: 2, por_acao: { criar: 2, erro: 0 } });
    expect((await aplicar(admin.token, res.body.id, regiao)).status).toBe(200);
    const bad = await upload(admin.token, 'profissionais', equipeComErrosCsv, regiao);
    expect(bad.body).toMatchObject({ status: 'com_erros', total: 2, por_acao: { erro: 2 } });
  });
});

describe('lancamentos (finance entries, D18)', () => {
  it('creates previsto and pago entries, matches by chave_externa, refuses changing a paid one, round-trips', async () => {
    const receita = { id: crypto.randomUUID(), regiao: 'SP', label: uniq('Mensalidade'), tipo: 'receita' as const };
    const despesa = { id: crypto.randomUUID(), regiao: 'SP', label: uniq('Frete'), tipo: 'despesa' as const };
    await db
      .insert(schema.categoriasFinanceiras)
      .values([receita, despesa].map((c) => ({ ...c, labelKey: c.label.toLowerCase() })));
    const fot = await makeFot('SP');
    const [k1, k2] = [uniq('NF'), uniq('NF')];
    const head = 'chave_externa;tipo;categoria;descricao;valor;vencimento;status;pago_em;fot';
    const csv = [
      head,
      `${k1};receita;${receita.label.toUpperCase()};Parcela 1;1.500,00;10/01/2027;;;${fot.fot}`,
      `${k2};despesa;${despesa.label};Frete do evento;250.5;2027-01-15;pago;16/01/2027;`,
      `;despesa;${receita.label};Errada;0;31/02/2027;cancelado;;`,
      `;receita;${receita.label};Sem data de pagamento;10;10/01/2027;pago;;`,
      `;receita;${receita.label};Já cancelada;10;10/01/2027;cancelado;;`,
    ].join('\n');
    const res = await upload(admin.token, 'lancamentos', csv);
    expect(res.body).toMatchObject({ status: 'com_erros', por_acao: { criar: 2, erro: 3 } });
    const cols = (linha: number) =>
      res.body.erros
        .filter((e: { linha: number }) => e.linha === linha)
        .map((e: { coluna: string }) => e.coluna)
        .sort();
    // The entry rules run once the line passes the schema.
    expect(cols(4)).toEqual(['valor', 'vencimento']);
    expect(cols(5)).toEqual(['pago_em']);
    expect(cols(6)).toEqual(['status']);

    const ok = await upload(admin.token, 'lancamentos', csv.split('\n').slice(0, 3).join('\n'));
    expect(ok.body).toMatchObject({ status: 'validado', por_acao: { criar: 2, erro: 0 } });
    expect((await aplicar(admin.token, ok.body.id)).status).toBe(200);
    const rows = await db
      .select()
      .from(schema.lancamentos)
      .where(inArray(schema.lancamentos.chaveExterna, [k1, k2]));
    const [a, b] = [rows.find((r) => r.chaveExterna === k1)!, rows.find((r) => r.chaveExterna === k2)!];
    expect(a).toMatchObject({
      valorCentavos: 150000,
      status: 'previsto',
      origem: 'importacao',
      fotId: fot.id,
      categoriaId: receita.id,
    });
    expect(b).toMatchObject({ valorCentavos: 25050, status: 'pago', pagoEm: '2027-01-16', tipo: 'despesa' });
    expect(await entriesOf(a.id, 'lancamentos.create')).toHaveLength(1);

    // Re-import: the previsto entry changes, the paid one may not.
    const again = await upload(
      admin.token,
      'lancamentos',
      [head, `${k1};receita;${receita.label};Parcela 1 (corrigida);1.600,00;10/01/2027;;;${fot.fot}`].join('\n'),
    );
    expect(again.body.por_acao).toMatchObject({ criar: 0, atualizar: 1 });
    expect((await aplicar(admin.token, again.body.id)).status).toBe(200);
    const [a2] = await db.select().from(schema.lancamentos).where(eq(schema.lancamentos.id, a.id));
    expect(a2).toMatchObject({ descricao: 'Parcela 1 (corrigida)', valorCentavos: 160000 });
    const paid = await upload(
      admin.token,
      'lancamentos',
      [head, `${k2};despesa;${despesa.label};Frete;999;15/01/2027;pago;16/01/2027;`].join('\n'),
    );
    expect(paid.body.erros).toEqual([
      {
        linha: 2,
        coluna: null,
        code: 'CONFLICT',
        error: 'o lançamento está pago e não pode ser alterado por importação',
      },
    ]);
    const mismatch = await upload(
      admin.token,
      'lancamentos',
      [head, `;receita;${despesa.label};X;1;10/01/2027;;;`].join('\n'),
    );
    expect(mismatch.body.erros[0]).toMatchObject({ coluna: 'categoria', code: 'VALIDATION_FAILED' });

    const exp = await exportar(admin.token, 'lancamentos', '?de=2027-01-01&ate=2027-01-31');
    expect(rowsOf(exp.body).length).toBeGreaterThanOrEqual(2);
    const back = await upload(admin.token, 'lancamentos', exp.body);
    expect(back.body).toMatchObject({ status: 'validado', por_acao: { criar: 0, atualizar: 0, erro: 0 } });
  });
  it('refuses a chave_externa with a system prefix (pedido:) on a new line or as a new key; the entry that holds it reads back unchanged', async () => {
    const receita = { id: crypto.randomUUID(), regiao: 'SP', label: uniq('Avulsa'), tipo: 'receita' as const };
    await db.insert(schema.categoriasFinanceiras).values({ ...receita, labelKey: receita.label.toLowerCase() });
    // An order's revenue entry as the payment consumer writes it, and an entry of the office's own.
    const orderKey = `pedido:${crypto.randomUUID()}`;
    await db.insert(schema.lancamentos).values({
      regiao: 'SP',
      tipo: 'receita',
      categoriaId: await systemCategoryId('SP', 'pacotes_fotos'),
      descricao: 'Pedido: Álbum — Maria',
      valorCentavos: 89_000,
      vencimento: '2031-03-10',
      status: 'pago',
      pagoEm: '2031-03-10',
      origem: 'pedido',
      chaveExterna: orderKey,
    });
    const [own] = await db
      .insert(schema.lancamentos)
      .values({
        regiao: 'SP',
        tipo: 'receita',
        categoriaId: receita.id,
        descricao: 'Própria',
        valorCentavos: 100,
        vencimento: '2031-03-11',
        chaveExterna: uniq('NF'),
      })
      .returning();
    const head = 'id;chave_externa;tipo;categoria;descricao;valor;vencimento';
    const res = await upload(
      admin.token,
      'lancamentos',
      [
        head,
        `;pedido:${crypto.randomUUID()};receita;${receita.label};Nova;10;10/03/2031`,
        `;Pedido:${crypto.randomUUID()};receita;${receita.label};Nova;10;10/03/2031`,
        `${own!.id};${orderKey};receita;${receita.label};Própria;1;11/03/2031`,
        `;${uniq('pedidos:')};receita;${receita.label};Nova;10;10/03/2031`,
      ].join('\n'),
    );
    expect(res.body).toMatchObject({ status: 'com_erros', por_acao: { criar: 1, erro: 3 } });
    const message = 'chave_externa: não pode começar com "pedido:" nem "taxa:": prefixo reservado ao sistema';
    for (const linha of [2, 3, 4])
      expect(res.body.erros).toContainEqual({
        linha,
        coluna: 'chave_externa',
        code: 'VALIDATION_FAILED',
        error: message,
      });
    // Exported, the order's entry (and the rest) reads back as no change.
    const exp = await exportar(admin.token, 'lancamentos', '?de=2000-01-01');
    expect(exp.body).toContain(orderKey);
    const back = await upload(admin.token, 'lancamentos', exp.body);
    expect(back.body).toMatchObject({ status: 'validado', por_acao: { criar: 0, atualizar: 0, erro: 0 } });
  });
});
