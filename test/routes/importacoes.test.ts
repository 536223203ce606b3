import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/db/schema';
import { db, makeAdmin, makeCatalog, makeFot, nextFot, uniq } from '../helpers/factories';
import { api, expectError } from '../helpers/request';

const upload = (token: string, tipo: string, body: BodyInit, regiao = 'SP', contentType = 'text/csv') =>
  api('POST', `/api/importacoes?tipo=${tipo}`, {
    token,
    rawBody: body,
    regiao,
    headers: { 'content-type': contentType },
  });

describe('smoke', () => {
  it('imports, applies and exports FOT records', async () => {
    const admin = await makeAdmin();
    const empresa = await makeCatalog(schema.empresas, 'SP', uniq('Empresa'));
    const curso = await makeCatalog(schema.cursos, 'SP', uniq('Curso'));
    const ano = await makeCatalog(schema.anosFormaturas, 'SP', uniq('2027.'));
    const fot = nextFot();
    const csv = `fot;empresa;curso;ano_formatura;instituicao;gastos_captacao;pre_venda\n${fot};${empresa.label.toUpperCase()};${curso.label};${ano.id};USP;1.234,56;sim\n`;
    const res = await upload(admin.token, 'cadastro-fot', csv);
    expect(res.body).toMatchObject({ status: 'validado', total: 1, por_acao: { criar: 1, atualizar: 0, erro: 0 } });
    const applied = await api('POST', `/api/importacoes/${res.body.id}/aplicar`, { token: admin.token });
    expect(applied.status).toBe(200);
    const [row] = await db.select().from(schema.cadastroFot).where(eq(schema.cadastroFot.fot, fot));
    expect(row).toMatchObject({ gastosCaptacaoCentavos: 123456, preVenda: true, instituicao: 'USP' });
    const exp = await api('GET', '/api/exportacoes/cadastro-fot.csv', { token: admin.token });
    expect(exp.status).toBe(200);
    const again = await upload(admin.token, 'cadastro-fot', exp.body);
    expect(again.body).toMatchObject({ status: 'validado', por_acao: { criar: 0, atualizar: 0, erro: 0 } });
    const tpl = await api('GET', '/api/importacoes/modelos/agenda.csv', { token: admin.token });
    expect(tpl.status).toBe(200);
    void makeFot;
    void expectError;
  });
});
