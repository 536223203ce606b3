import { agenda, cadastroFot, lancamentos, profissionais, type ImportTipo } from '../../db/schema';
import { toCsv } from '../../lib/csv';
import type { ErrorCode } from '../../lib/errors';

/**
 * The spreadsheet format of each kind (docs/decisions.md#d20; docs/guide/imports.md): its columns in
 * file order (header name, body field, target column, cell format, reference), the defaults of a
 * create, the target table; the template file; and the shapes every part of an import shares.
 */

export const MAX_BYTES = 1024 * 1024;
export const MAX_ROWS = 5000;

export type Cell = 'text' | 'int' | 'money' | 'bool' | 'date' | 'time' | 'ref';
export type RefTo =
  | 'funcoes'
  | 'empresas'
  | 'cursos'
  | 'anos_formaturas'
  | 'tipos_eventos'
  | 'cadastro_fot'
  | 'categorias_financeiras'
  | 'agenda'
  | 'profissionais';

export interface ColumnDef {
  /** Header name in the file. */
  csv: string;
  /** Field of the single-record route's body. */
  wire: string;
  /** Drizzle key of the target table's column. */
  key: string;
  cell: Cell;
  ref?: RefTo;
  required?: boolean;
  /** An empty cell is absent (the stored value stays; a create gets CREATE_DEFAULTS): a NOT NULL column. */
  keep?: boolean;
  example: string;
}

const c = (
  csv: string,
  cell: Cell,
  example: string,
  more: Partial<Pick<ColumnDef, 'wire' | 'key' | 'ref' | 'required' | 'keep'>> = {},
): ColumnDef => ({
  csv,
  cell,
  example,
  wire: more.wire ?? csv,
  key: more.key ?? csv.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase()),
  ref: more.ref,
  required: more.required,
  keep: more.keep,
});

/** Every kind's columns, in file order; `id` (optional, filled by exports) comes first in all. */
export const COLUMNS: Record<ImportTipo, ColumnDef[]> = {
  profissionais: [
    c('nome', 'text', 'Maria da Silva', { required: true }),
    c('email', 'text', 'maria@example.com'),
    c('funcao_profissional', 'ref', 'Fotógrafo', {
      wire: 'funcao_profissional_id',
      key: 'funcaoProfissionalId',
      ref: 'funcoes',
    }),
    c('whatsapp', 'text', '(11) 99999-0000'),
    c('endereco', 'text', 'Rua das Flores, 10'),
    c('cidade', 'text', 'São Paulo'),
    c('uf', 'text', 'SP'),
    c('banco', 'text', 'Banco do Brasil'),
    c('agencia', 'text', '1234-5'),
    c('conta_pix', 'text', 'maria@example.com'),
    c('tipo_chave_pix', 'text', 'email'),
    c('regime_fiscal', 'text', 'mei', { keep: true }),
    c('cpf_cnpj_titular', 'text', '529.982.247-25'),
    c('tipo_cartao', 'text', ''),
    c('tabela_free', 'text', ''),
    c('equipamentos', 'text', 'Canon R6; 24-70mm'),
    c('observacao', 'text', ''),
    c('carro_disponivel', 'bool', 'sim'),
    c('tem_estudio', 'bool', 'não'),
    c('qtd_estudio', 'int', '0'),
    c('extra_por_equipamento', 'bool', 'não'),
  ],
  'cadastro-fot': [
    c('fot', 'int', '4521', { required: true }),
    c('empresa', 'ref', 'Alfa Formaturas', { wire: 'empresa_id', key: 'empresaId', ref: 'empresas', required: true }),
    c('curso', 'ref', 'Medicina', { wire: 'curso_id', key: 'cursoId', ref: 'cursos', required: true }),
    c('ano_formatura', 'ref', '2027.2', {
      wire: 'ano_formatura_id',
      key: 'anoFormaturaId',
      ref: 'anos_formaturas',
      required: true,
    }),
    c('instituicao', 'text', 'USP'),
    c('cidade', 'text', 'São Paulo'),
    c('estado', 'text', 'SP'),
    c('observacoes', 'text', ''),
    c('gastos_captacao', 'money', '1.234,56', { key: 'gastosCaptacaoCentavos' }),
    c('pre_venda', 'bool', 'não'),
  ],
  agenda: [
    c('chave_externa', 'text', 'EVT-2027-001'),
    c('fot', 'ref', '4521', { wire: 'fot_id', key: 'fotId', ref: 'cadastro_fot', required: true }),
    c('tipo_evento', 'ref', 'Colação de grau', {
      wire: 'tipo_evento_id',
      key: 'tipoEventoId',
      ref: 'tipos_eventos',
      required: true,
    }),
    c('data_evento', 'date', '05/12/2027', { required: true }),
    c('horario', 'time', '19:30'),
    c('horario_fim', 'time', '23:30'),
    c('local_evento', 'text', 'Teatro Municipal'),
    c('endereco', 'text', 'Praça Ramos de Azevedo, s/n'),
    // The IBGE code of the event's city (docs/decisions.md#d23), as GET /api/cidades answers it.
    c('cidade_ibge', 'int', '3550308'),
    c('observacoes_evento', 'text', ''),
    c('logistica_observacoes', 'text', ''),
    c('status_profissionais', 'text', ''),
    c('pre_venda', 'bool', 'não'),
    ...[
      'qtd_formandos',
      'qtd_fotografos',
      'qtd_cinegrafistas',
      'qtd_recepcionistas',
      'qtd_estudios',
      'qtd_ponto_foto',
      'qtd_ponto_id',
      'qtd_ponto_decorado',
      'qtd_pontos_led',
      'qtd_plataforma_360',
      'foto_faltante',
      'cine_faltante',
      'recep_faltante',
    ].map((name) => c(name, 'int', name === 'qtd_formandos' ? '120' : '')),
  ],
  lancamentos: [
    c('chave_externa', 'text', 'NF-2027-0001'),
    c('tipo', 'text', 'receita', { required: true }),
    c('categoria', 'ref', 'Contrato', {
      wire: 'categoria_id',
      key: 'categoriaId',
      ref: 'categorias_financeiras',
      required: true,
    }),
    c('descricao', 'text', 'Parcela 1 do contrato', { required: true }),
    c('valor', 'money', '1.500,00', { key: 'valorCentavos', required: true }),
    c('vencimento', 'date', '10/01/2027', { required: true }),
    c('status', 'text', 'previsto'),
    c('pago_em', 'date', ''),
    c('fot', 'ref', '4521', { wire: 'fot_id', key: 'fotId', ref: 'cadastro_fot' }),
    c('agenda', 'ref', '', { wire: 'agenda_id', key: 'agendaId', ref: 'agenda' }),
    c('profissional', 'ref', '', { wire: 'profissional_id', key: 'profissionalId', ref: 'profissionais' }),
  ],
};

/** Columns a create fills when the file leaves them empty (NOT NULL with a default in the single-record routes). */
export const CREATE_DEFAULTS: Partial<Record<ImportTipo, Record<string, unknown>>> = {
  profissionais: { regimeFiscal: 'mei' },
  'cadastro-fot': { preVenda: false },
  lancamentos: { status: 'previsto' },
};

export type SupportedTipo = ImportTipo;
export const ID_COLUMN = 'id';

export const TABLES = { profissionais, 'cadastro-fot': cadastroFot, agenda, lancamentos } as const;
export type TargetTable = (typeof TABLES)[SupportedTipo];
export const ENTIDADE: Record<SupportedTipo, string> = {
  profissionais: 'profissionais',
  'cadastro-fot': 'cadastro_fot',
  agenda: 'agenda',
  lancamentos: 'lancamentos',
};

export const supported = (tipo: ImportTipo): SupportedTipo => tipo;

export const headerOf = (tipo: SupportedTipo) => [ID_COLUMN, ...COLUMNS[tipo].map((col) => col.csv)];

/** GET /api/importacoes/modelos/{tipo}.csv: the header and one example row. */
export function templateCsv(tipo: ImportTipo): string {
  const t = supported(tipo);
  return toCsv(headerOf(t), [['', ...COLUMNS[t].map((col) => col.example)]]);
}

/** The route's own body schema of each kind (routes/*\/schemas.ts), handed in by the route layer. */
export interface RowSchema {
  safeParse(v: unknown): {
    success: boolean;
    data?: unknown;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
}
export type RowSchemas = Record<SupportedTipo, RowSchema>;

export interface ImportError {
  linha: number;
  coluna: string | null;
  code: ErrorCode;
  error: string;
}

export interface Staged {
  linha: number;
  acao: 'criar' | 'atualizar';
  alvoId: string;
  dados: Record<string, unknown>;
}

export type Row = Record<string, unknown>;
