import { describe, expect, it } from 'vitest';
import { avaliarRegras, type EventoRegras, type Quota, type Regra } from '../../../src/services/rules/avaliacao';
import { addDays, diasUteisAntes, weekday } from '../../../src/lib/dias-uteis';

// The evaluation is a pure function of (rules, event) (docs/decisions.md#d25): a table of cases.

const FOTO = 'f0000000-0000-4000-8000-000000000001';
const CINE = 'f0000000-0000-4000-8000-000000000002';
const UFSC = 'i0000000-0000-4000-8000-000000000001';
const COLACAO = 't0000000-0000-4000-8000-000000000001';
const BAILE = 't0000000-0000-4000-8000-000000000002';
const funcoes = { [FOTO]: 'Fotógrafo', [CINE]: 'Cinegrafista' };

let seq = 0;
function regra(over: Partial<Regra> & { quotas?: Quota[] } = {}): Regra {
  const { quotas = [], ...rest } = over;
  return {
    id: `r${++seq}`,
    nome: `Regra ${seq}`,
    escopo: 'empresa',
    instituicao_id: null,
    tipo_evento_id: null,
    vigencia_inicio: '2011-01-01',
    vigencia_fim: null,
    definicao: { quotas, prazos: [], taxas: [], documentos: [] },
    funcoes,
    ...rest,
  };
}
const ufsc = (over: Partial<Regra> & { quotas?: Quota[] } = {}) =>
  regra({ nome: 'UFSC 2011', escopo: 'instituicao', instituicao_id: UFSC, ...over });

const evento = (over: Partial<EventoRegras> = {}): EventoRegras => ({
  data_evento: '2027-05-10',
  tipo_evento_id: COLACAO,
  instituicao_id: UFSC,
  qtd_formandos: 57,
  ...over,
});

const q = (over: Partial<Quota> = {}): Quota => ({
  funcao_id: FOTO,
  por_formandos: 20,
  arredondar: 'cima',
  limite: 'maximo',
  ...over,
});

describe('quotas', () => {
  const cases: { name: string; regras: Regra[]; ev?: Partial<EventoRegras>; quantidade: number; explicacao: string }[] =
    [
      {
        name: 'rounding up, an institution cap',
        regras: [ufsc({ quotas: [q()] })],
        quantidade: 3,
        explicacao: 'fotógrafo: ceil(57 / 20) = 3 (máximo, UFSC 2011)',
      },
      {
        name: 'rounding down',
        regras: [ufsc({ quotas: [q({ arredondar: 'baixo' })] })],
        quantidade: 2,
        explicacao: 'fotógrafo: floor(57 / 20) = 2 (máximo, UFSC 2011)',
      },
      {
        name: 'exact division rounds to itself both ways',
        regras: [ufsc({ quotas: [q({ arredondar: 'baixo' })] })],
        ev: { qtd_formandos: 60 },
        quantidade: 3,
        explicacao: 'fotógrafo: floor(60 / 20) = 3 (máximo, UFSC 2011)',
      },
      {
        name: 'a floor (`min`) above the figure',
        regras: [regra({ nome: 'Padrão', quotas: [q({ por_formandos: 100, min: 2, limite: 'minimo' })] })],
        quantidade: 2,
        explicacao: 'fotógrafo: ceil(57 / 100) = 1, no mínimo 2 (mínimo, Padrão)',
      },
      {
        name: "a company target under the institution's cap: the target",
        regras: [
          regra({ nome: 'Padrão', quotas: [q({ por_formandos: 30, limite: 'minimo' })] }),
          ufsc({ quotas: [q()] }),
        ],
        quantidade: 2,
        explicacao: 'fotógrafo: ceil(57 / 30) = 2 (mínimo, Padrão); ceil(57 / 20) = 3 (máximo, UFSC 2011) → 2',
      },
      {
        name: "a company target above the institution's cap: the cap",
        regras: [
          regra({ nome: 'Padrão', quotas: [q({ por_formandos: 10, limite: 'minimo' })] }),
          ufsc({ quotas: [q()] }),
        ],
        quantidade: 3,
        explicacao:
          'fotógrafo: ceil(57 / 10) = 6 (mínimo, Padrão); ceil(57 / 20) = 3 (máximo, UFSC 2011) → 3 (o máximo limita o mínimo)',
      },
      {
        name: "an institution's `exato` over a company's target",
        regras: [
          regra({ nome: 'Padrão', quotas: [q({ por_formandos: 10, limite: 'minimo' })] }),
          ufsc({ quotas: [q({ limite: 'exato' })] }),
        ],
        quantidade: 3,
        explicacao: 'fotógrafo: ceil(57 / 20) = 3 (exato, UFSC 2011)',
      },
      {
        name: "the company's rule for the event's type over its general one",
        regras: [
          regra({ nome: 'Padrão', quotas: [q({ por_formandos: 30, limite: 'minimo' })] }),
          regra({ nome: 'Colação', tipo_evento_id: COLACAO, quotas: [q({ por_formandos: 15, limite: 'minimo' })] }),
          regra({ nome: 'Baile', tipo_evento_id: BAILE, quotas: [q({ por_formandos: 5, limite: 'minimo' })] }),
        ],
        quantidade: 4,
        explicacao: 'fotógrafo: ceil(57 / 15) = 4 (mínimo, Colação)',
      },
      {
        name: 'before a new version starts, the old one',
        regras: [
          ufsc({ quotas: [q()] }),
          ufsc({ nome: 'UFSC 2027', vigencia_inicio: '2027-03-01', quotas: [q({ por_formandos: 15 })] }),
        ],
        ev: { data_evento: '2027-02-28' },
        quantidade: 3,
        explicacao: 'fotógrafo: ceil(57 / 20) = 3 (máximo, UFSC 2011)',
      },
      {
        name: 'from the day a new version starts, the new one',
        regras: [
          ufsc({ quotas: [q()] }),
          ufsc({ nome: 'UFSC 2027', vigencia_inicio: '2027-03-01', quotas: [q({ por_formandos: 15 })] }),
        ],
        ev: { data_evento: '2027-03-01' },
        quantidade: 4,
        explicacao: 'fotógrafo: ceil(57 / 15) = 4 (máximo, UFSC 2027)',
      },
      {
        name: 'a version whose vigencia ended the day before is not in force',
        regras: [
          regra({ nome: 'Padrão', quotas: [q({ por_formandos: 30, limite: 'minimo' })] }),
          regra({
            nome: 'Antiga',
            vigencia_inicio: '2020-01-01',
            vigencia_fim: '2027-05-09',
            quotas: [q({ por_formandos: 5, limite: 'minimo' })],
          }),
        ],
        quantidade: 2,
        explicacao: 'fotógrafo: ceil(57 / 30) = 2 (mínimo, Padrão)',
      },
    ];
  for (const c of cases)
    it(c.name, () => {
      const a = avaliarRegras(c.regras, evento(c.ev));
      expect(a.quotas_sugeridas).toHaveLength(1);
      expect(a.quotas_sugeridas[0]).toMatchObject({
        funcao_id: FOTO,
        quantidade: c.quantidade,
        explicacao: c.explicacao,
      });
    });

  it("another institution's rule does not apply; a resource is sized and named", () => {
    const a = avaliarRegras(
      [
        ufsc({ instituicao_id: 'i0000000-0000-4000-8000-000000000009', quotas: [q()] }),
        regra({
          nome: 'Padrão',
          quotas: [q({ funcao_id: undefined, recurso: 'qtd_estudios', por_formandos: 30, limite: 'minimo' })],
        }),
      ],
      evento(),
    );
    expect(a.regras.map((r) => r.nome)).toEqual(['Padrão']);
    expect(a.quotas_sugeridas).toEqual([
      expect.objectContaining({
        recurso: 'qtd_estudios',
        quantidade: 2,
        explicacao: 'estúdios: ceil(57 / 30) = 2 (mínimo, Padrão)',
      }),
    ]);
  });

  it('without qtd_formandos nothing is computed, and the answer says why', () => {
    const a = avaliarRegras([ufsc({ quotas: [q()] })], evento({ qtd_formandos: null }));
    expect(a.quotas_sugeridas).toEqual([]);
    expect(a.avisos[0]).toMatch(/sem qtd_formandos/);
  });
});

describe('conflicts, fees, deadlines, documents', () => {
  const full = ufsc({
    quotas: [q(), q({ funcao_id: undefined, recurso: 'qtd_estudios', por_formandos: 30, limite: 'exato' })],
    definicao: {
      quotas: [q(), q({ funcao_id: undefined, recurso: 'qtd_estudios', por_formandos: 30, limite: 'exato' })],
      prazos: [
        { tipo: 'credenciamento', quantidade: 5, unidade: 'dias_uteis', antes_de: 'data_evento' },
        { tipo: 'lista_formandos', quantidade: 30, unidade: 'dias', antes_de: 'data_evento' },
      ],
      taxas: [
        { descricao: 'Credencial', por: 'profissional', valor_centavos: 5000 },
        { descricao: 'Estúdio', por: 'estudio', valor_centavos: 20000 },
        { descricao: 'Uso do espaço', por: 'evento', valor_centavos: 100000 },
      ],
      documentos: ['cpf', 'nome_completo'],
    },
  });

  it('a team quota or a resource above a cap is a conflict; a quota at the cap is not', () => {
    const a = avaliarRegras([full], evento({ equipe: { [FOTO]: 4, [CINE]: 9 }, recursos: { qtd_estudios: 3 } }));
    expect(a.conflitos).toEqual([
      expect.objectContaining({ code: 'EXCEEDS_INSTITUTION_LIMIT', funcao_id: FOTO, quantidade: 4, maximo: 3 }),
      expect.objectContaining({ code: 'EXCEEDS_INSTITUTION_LIMIT', recurso: 'qtd_estudios', quantidade: 3, maximo: 2 }),
    ]);
    expect(a.conflitos[0]!.explicacao).toBe('fotógrafo: 4 acima do máximo 3 (ceil(57 / 20) = 3 (máximo, UFSC 2011))');
    expect(avaliarRegras([full], evento({ equipe: { [FOTO]: 3 }, recursos: { qtd_estudios: 2 } })).conflitos).toEqual(
      [],
    );
  });

  it('fees: per professional of the team as set (else as suggested), per studio, per event', () => {
    const set = avaliarRegras([full], evento({ equipe: { [FOTO]: 3, [CINE]: 2 }, recursos: { qtd_estudios: 2 } }));
    expect(set.taxas.map((t) => [t.descricao, t.quantidade, t.total_centavos])).toEqual([
      ['Credencial', 5, 25000],
      ['Estúdio', 2, 40000],
      ['Uso do espaço', 1, 100000],
    ]);
    expect(set.taxas[0]!.explicacao).toBe(
      'Credencial: R$ 50,00 × 5 profissionais (equipe do evento) = R$ 250,00 (UFSC 2011)',
    );
    const suggested = avaliarRegras([full], evento());
    expect(suggested.taxas.map((t) => t.quantidade)).toEqual([3, 2, 1]);
    expect(suggested.documentos).toEqual(['nome_completo', 'cpf']);
  });

  it('deadlines in business days skip weekends and the holidays given; calendar days do not', () => {
    const a = avaliarRegras(
      [full],
      evento({
        data_evento: '2027-02-12',
        feriados: new Map([
          ['2027-02-08', 'Carnaval'],
          ['2027-02-09', 'Carnaval'],
        ]),
      }),
    );
    const cred = a.prazos.find((p) => p.tipo === 'credenciamento')!;
    expect(cred.data_limite).toBe('2027-02-03');
    expect(cred.explicacao).toBe(
      'credenciamento: 5 dias úteis antes de 12/02/2027 = 03/02/2027 (UFSC 2011; sem contar 08/02/2027 (Carnaval), 09/02/2027 (Carnaval))',
    );
    expect(a.prazos.find((p) => p.tipo === 'lista_formandos')!.data_limite).toBe('2027-01-13');
  });
});

describe('business days on YYYY-MM-DD strings', () => {
  it('counts back from the day before, skipping weekends and holidays', () => {
    expect(weekday('2027-05-10')).toBe(1);
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    // A Monday: 1 business day before is the Friday; 0 is the day itself.
    expect(diasUteisAntes('2027-05-10', 1, new Map()).data).toBe('2027-05-07');
    expect(diasUteisAntes('2027-05-10', 0, new Map()).data).toBe('2027-05-10');
    const r = diasUteisAntes('2027-03-30', 3, new Map([['2027-03-26', 'Sexta-feira Santa']]));
    expect(r).toEqual({ data: '2027-03-24', pulados: [{ data: '2027-03-26', motivo: 'Sexta-feira Santa' }] });
  });
});
