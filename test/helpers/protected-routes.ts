import { ROLES, type Role } from '../../src/db/schema';

const ADMINS: Role[] = ['SUPERADMIN', 'BUSINESS_OWNER'];
import { UNKNOWN_ID as ID } from './request';

/** A valid company rule (decisions D25), for the rules' rows. */
const RULE = {
  nome: 'Padrão',
  escopo: 'empresa',
  vigencia_inicio: '2099-01-01',
  definicao: { quotas: [{ recurso: 'qtd_estudios', por_formandos: 20, arredondar: 'cima', limite: 'minimo' }] },
};

export interface ProtectedRoute {
  method: string;
  path: string;
  /** Roles that get past authorization (anything else must be 403). */
  allowed: readonly Role[];
  /** A valid body, so that a 403 cannot be a validation failure in disguise. */
  body?: unknown;
}

/** GET list, POST, PUT /{id} and DELETE /{id} of a catalog. */
function catalogRoutes(
  path: string,
  body: Record<string, string>,
  opts: { publicList?: boolean } = {},
): ProtectedRoute[] {
  return [
    ...(opts.publicList ? [] : [{ method: 'GET', path, allowed: ROLES }]),
    { method: 'POST', path, allowed: ADMINS, body },
    { method: 'PUT', path: `${path}/${ID}`, allowed: ADMINS, body },
    { method: 'DELETE', path: `${path}/${ID}`, allowed: ADMINS },
  ];
}

/**
 * Every authenticated route, once. The shared suite checks: no token → 401, bad token → 401,
 * each role outside `allowed` → 403. A new route group adds its rows here.
 */
export const protectedRoutes: ProtectedRoute[] = [
  { method: 'GET', path: '/api/me', allowed: ROLES },
  { method: 'PUT', path: '/api/me', allowed: ROLES, body: { telefone: '11 99999-0000' } },
  // WhatsApp consent (decisions D30).
  { method: 'PUT', path: '/api/me/canais', allowed: ['profissional'], body: { whatsapp: false } },
  { method: 'GET', path: '/api/users/me', allowed: ROLES },
  { method: 'PUT', path: '/api/users/me', allowed: ROLES, body: { telefone: '11 99999-0000' } },
  { method: 'GET', path: '/api/admin/users', allowed: ADMINS },
  { method: 'POST', path: `/api/admin/users/${ID}/convite-acesso`, allowed: ADMINS },
  { method: 'GET', path: '/api/admin/users/pending', allowed: ADMINS },
  { method: 'GET', path: `/api/admin/users/${ID}`, allowed: ADMINS },
  {
    method: 'POST',
    path: '/api/admin/users',
    allowed: ADMINS,
    body: { email: 'x@example.com', senha: 'segredo1', nome: 'X', role: 'RESEARCHER' },
  },
  { method: 'DELETE', path: `/api/admin/users/${ID}`, allowed: ADMINS },
  { method: 'PATCH', path: `/api/admin/users/${ID}/approve`, allowed: ADMINS },
  { method: 'PATCH', path: `/api/admin/users/${ID}/role`, allowed: ADMINS, body: { role: 'RESEARCHER' } },
  // Catalogs (GET /api/funcoes is public and so not here): reads for every role, writes for administrators.
  ...catalogRoutes('/api/anos-formaturas', { ano_semestre: '2030.2' }),
  ...catalogRoutes('/api/cursos', { nome: 'Curso da tabela' }),
  ...catalogRoutes('/api/empresas', { nome: 'Empresa da tabela' }),
  ...catalogRoutes('/api/funcoes', { nome: 'Funcao da tabela' }, { publicList: true }),
  ...catalogRoutes('/api/tipos-servicos', { nome: 'Servico da tabela' }),
  ...catalogRoutes('/api/tipos-eventos', { nome: 'Evento da tabela' }),
  // Places (docs/decisions.md#d23): the cities for every active role; institutions are a catalog.
  { method: 'GET', path: '/api/cidades', allowed: ROLES },
  ...catalogRoutes('/api/instituicoes', { nome: 'Instituicao da tabela' }),
  { method: 'POST', path: '/api/instituicoes/vincular', allowed: ADMINS },
  { method: 'GET', path: '/api/deslocamentos', allowed: ADMINS },
  {
    method: 'PUT',
    path: '/api/deslocamentos',
    allowed: ADMINS,
    body: { itens: [{ origem_ibge: 3509502, destino_ibge: 3550308, minutos: 90 }] },
  },
  {
    method: 'GET',
    path: '/api/deslocamentos/estimativa',
    allowed: [...ADMINS, 'agenda_viewer'],
  },
  {
    method: 'POST',
    path: '/api/tipos-eventos/precos',
    allowed: ADMINS,
    body: { tipo_evento_id: ID, funcao_profissional_id: ID, valor: 10 },
  },
  { method: 'GET', path: `/api/tipos-eventos/${ID}/precos`, allowed: ROLES },
  // FOT records: administrators; an EVENT_OWNER reads (its company's).
  { method: 'GET', path: '/api/cadastro-fot', allowed: [...ADMINS, 'EVENT_OWNER'] },
  { method: 'GET', path: `/api/cadastro-fot/${ID}`, allowed: [...ADMINS, 'EVENT_OWNER'] },
  {
    method: 'POST',
    path: '/api/cadastro-fot',
    allowed: ADMINS,
    body: { fot: 1, empresa_id: ID, curso_id: ID, ano_formatura_id: ID },
  },
  { method: 'PUT', path: `/api/cadastro-fot/${ID}`, allowed: ADMINS, body: { cidade: 'Santos' } },
  { method: 'DELETE', path: `/api/cadastro-fot/${ID}`, allowed: ADMINS },
  // Professionals: administrators; a professional its own profile.
  { method: 'GET', path: '/api/profissionais', allowed: [...ADMINS, 'profissional'] },
  { method: 'GET', path: '/api/profissionais/contagem', allowed: ADMINS },
  // Availability (D24): the professional's own declarations, administrators' for anyone, the planners' summary.
  { method: 'GET', path: '/api/profissionais/me/disponibilidades', allowed: ['profissional'] },
  {
    method: 'POST',
    path: '/api/profissionais/me/disponibilidades',
    allowed: ['profissional'],
    body: { tipo: 'preferencial', data_inicio: '2099-01-01' },
  },
  { method: 'DELETE', path: `/api/profissionais/me/disponibilidades/${ID}`, allowed: ['profissional'] },
  { method: 'GET', path: `/api/profissionais/${ID}/disponibilidades`, allowed: ADMINS },
  {
    method: 'POST',
    path: `/api/profissionais/${ID}/disponibilidades`,
    allowed: ADMINS,
    body: { tipo: 'preferencial', data_inicio: '2099-01-01' },
  },
  { method: 'DELETE', path: `/api/profissionais/${ID}/disponibilidades/{disp_id}`, allowed: ADMINS },
  { method: 'GET', path: '/api/disponibilidades/resumo', allowed: [...ADMINS, 'agenda_viewer'] },
  {
    method: 'POST',
    path: '/api/campanhas-disponibilidade',
    allowed: ADMINS,
    body: { nome: 'Temporada', de: '2099-03-01', ate: '2099-03-31', funcao_ids: [ID], prazo: '2099-02-01' },
  },
  { method: 'GET', path: '/api/campanhas-disponibilidade', allowed: [...ADMINS, 'profissional'] },
  { method: 'GET', path: `/api/campanhas-disponibilidade/${ID}`, allowed: [...ADMINS, 'profissional'] },
  {
    method: 'PUT',
    path: `/api/campanhas-disponibilidade/${ID}/respostas`,
    allowed: ['profissional'],
    body: { datas: [{ data: '2099-03-02', resposta: 'sim' }] },
  },
  { method: 'GET', path: `/api/campanhas-disponibilidade/${ID}/resultado`, allowed: [...ADMINS, 'agenda_viewer'] },
  { method: 'POST', path: `/api/campanhas-disponibilidade/${ID}/encerrar`, allowed: ADMINS },
  // Institution rules, holidays, credential lists (decisions D25).
  { method: 'GET', path: '/api/regras', allowed: ADMINS },
  { method: 'POST', path: '/api/regras', allowed: ADMINS, body: RULE },
  { method: 'GET', path: `/api/regras/${ID}`, allowed: ADMINS },
  { method: 'PUT', path: `/api/regras/${ID}`, allowed: ADMINS, body: RULE },
  { method: 'DELETE', path: `/api/regras/${ID}`, allowed: ADMINS },
  {
    method: 'POST',
    path: '/api/regras/validar',
    allowed: [...ADMINS, 'agenda_viewer'],
    body: { regra: RULE, evento: { data_evento: '2099-03-02', qtd_formandos: 57 } },
  },
  { method: 'GET', path: `/api/agenda/${ID}/regras`, allowed: [...ADMINS, 'agenda_viewer'] },
  { method: 'POST', path: `/api/agenda/${ID}/regras/aplicar`, allowed: [...ADMINS, 'agenda_viewer'] },
  { method: 'GET', path: `/api/agenda/${ID}/credenciamento.csv`, allowed: ADMINS },
  { method: 'GET', path: '/api/feriados', allowed: [...ADMINS, 'agenda_viewer'] },
  {
    method: 'POST',
    path: '/api/feriados',
    allowed: ADMINS,
    body: { data: '2099-03-02', nome: 'Dia da cidade', tipo: 'feriado', escopo: 'municipio', cidade_ibge: 3509502 },
  },
  { method: 'DELETE', path: `/api/feriados/${ID}`, allowed: ADMINS },
  // QR check-in (D27): staff of an event (administrators, its creator, its coordinator; the service checks which).
  { method: 'GET', path: `/api/agenda/${ID}/checkin`, allowed: [...ADMINS, 'agenda_viewer', 'profissional'] },
  {
    method: 'PUT',
    path: `/api/agenda/${ID}/checkin`,
    allowed: [...ADMINS, 'agenda_viewer'],
    body: { raio_checkin_m: 250 },
  },
  { method: 'GET', path: `/api/agenda/${ID}/checkin/qr`, allowed: [...ADMINS, 'agenda_viewer', 'profissional'] },
  { method: 'GET', path: `/api/agenda/${ID}/checkin/chave`, allowed: [...ADMINS, 'agenda_viewer'] },
  { method: 'POST', path: `/api/agenda/${ID}/checkin/chave/rotacionar`, allowed: [...ADMINS, 'agenda_viewer'] },
  {
    method: 'POST',
    path: `/api/agenda/${ID}/presencas/leituras`,
    allowed: [...ADMINS, 'agenda_viewer', 'profissional'],
    body: { tokens: ['A'.repeat(44)] },
  },
  {
    method: 'POST',
    path: `/api/agenda/${ID}/presencas/manual`,
    allowed: [...ADMINS, 'profissional'],
    body: { convite_id: ID, tipo: 'entrada', momento: '2030-01-01T00:00:00.000Z', motivo: 'teste' },
  },
  {
    method: 'GET',
    path: `/api/agenda/${ID}/presencas`,
    allowed: [...ADMINS, 'agenda_viewer', 'profissional', 'EVENT_OWNER'],
  },
  {
    method: 'POST',
    path: '/api/presencas',
    allowed: ['profissional'],
    body: { token: 'A'.repeat(44), tipo: 'entrada' },
  },
  { method: 'PATCH', path: `/api/presencas/${ID}`, allowed: ADMINS, body: { situacao: 'ok' } },
  { method: 'GET', path: `/api/convites/${ID}/checkin/qr`, allowed: ['profissional'] },
  { method: 'POST', path: `/api/convites/${ID}/falta`, allowed: ADMINS, body: { motivo: 'não veio' } },
  { method: 'DELETE', path: `/api/convites/${ID}/falta`, allowed: ADMINS, body: { motivo: 'pessoa errada' } },
  // Reliability (D28): never EVENT_OWNER or agenda_viewer; a RESEARCHER reads the aggregates only.
  { method: 'GET', path: '/api/profissionais/me/confiabilidade', allowed: ['profissional'] },
  {
    method: 'POST',
    path: '/api/profissionais/me/confiabilidade/contestacoes',
    allowed: ['profissional'],
    body: { evento_id: ID, motivo: 'não fui avisado' },
  },
  { method: 'GET', path: `/api/profissionais/${ID}/confiabilidade`, allowed: ADMINS },
  { method: 'GET', path: '/api/confiabilidade/contestacoes', allowed: ADMINS },
  {
    method: 'PATCH',
    path: `/api/confiabilidade/contestacoes/${ID}`,
    allowed: ADMINS,
    body: { decisao: 'manter', resposta: 'mantido' },
  },
  { method: 'GET', path: '/api/confiabilidade/regioes', allowed: [...ADMINS, 'RESEARCHER'] },
  // The season planner (docs/decisions.md#d26): administrators only.
  { method: 'GET', path: '/api/planejamento/capacidade', allowed: ADMINS },
  {
    method: 'POST',
    path: '/api/planejamento/simulacao',
    allowed: ADMINS,
    body: { eventos: [{ data_evento: '2099-03-02', tipo_evento_id: ID }] },
  },
  { method: 'GET', path: '/api/equipamentos', allowed: ADMINS },
  {
    method: 'PUT',
    path: '/api/equipamentos',
    allowed: ADMINS,
    body: { itens: [{ recurso: 'qtd_estudios', quantidade: 1 }] },
  },
  { method: 'GET', path: `/api/profissionais/${ID}`, allowed: [...ADMINS, 'profissional'] },
  {
    method: 'POST',
    path: '/api/profissionais',
    allowed: [...ADMINS, 'profissional'],
    body: { nome: 'Pessoa da tabela' },
  },
  { method: 'PUT', path: `/api/profissionais/${ID}`, allowed: [...ADMINS, 'profissional'], body: { whatsapp: '1' } },
  { method: 'DELETE', path: `/api/profissionais/${ID}`, allowed: ADMINS },
  // Agenda: the role x action table of src/lib/permissions.ts.
  { method: 'GET', path: '/api/agenda', allowed: [...ADMINS, 'agenda_viewer', 'EVENT_OWNER', 'profissional'] },
  { method: 'GET', path: `/api/agenda/${ID}`, allowed: [...ADMINS, 'agenda_viewer', 'EVENT_OWNER', 'profissional'] },
  {
    method: 'POST',
    path: '/api/agenda',
    allowed: [...ADMINS, 'agenda_viewer'],
    body: { fot_id: ID, tipo_evento_id: ID, data_evento: '2026-12-01' },
  },
  { method: 'PUT', path: `/api/agenda/${ID}`, allowed: [...ADMINS, 'agenda_viewer'], body: { horario: '10:00' } },
  { method: 'DELETE', path: `/api/agenda/${ID}`, allowed: [...ADMINS, 'agenda_viewer'] },
  // Teams and invitations (decisions D11).
  { method: 'PUT', path: `/api/agenda/${ID}/equipe`, allowed: [...ADMINS, 'agenda_viewer'], body: [] },
  {
    method: 'POST',
    path: `/api/agenda/${ID}/convites`,
    allowed: [...ADMINS, 'agenda_viewer'],
    body: { profissional_id: ID, funcao_id: ID },
  },
  { method: 'GET', path: `/api/agenda/${ID}/convites`, allowed: [...ADMINS, 'agenda_viewer'] },
  { method: 'GET', path: '/api/convites', allowed: ['profissional'] },
  // Ranking (D29): the planners rank and invite in batch; administrators set the region's weights.
  { method: 'GET', path: `/api/agenda/${ID}/candidatos`, allowed: [...ADMINS, 'agenda_viewer'] },
  {
    method: 'POST',
    path: `/api/agenda/${ID}/convites/lote`,
    allowed: [...ADMINS, 'agenda_viewer'],
    body: { funcao_id: ID, top_n: 1 },
  },
  { method: 'GET', path: '/api/ranking/pesos', allowed: ADMINS },
  {
    method: 'PUT',
    path: '/api/ranking/pesos',
    allowed: ADMINS,
    body: { distancia: 1, avaliacao: 1, confiabilidade: 1, rodizio: 1, funcao: 1, preferencia: 1, responsividade: 1 },
  },
  { method: 'PATCH', path: `/api/convites/${ID}`, allowed: ['profissional', ...ADMINS], body: { status: 'aceito' } },
  { method: 'DELETE', path: `/api/convites/${ID}`, allowed: ADMINS },
  // WhatsApp delivery per invitation (decisions D30).
  { method: 'GET', path: `/api/agenda/${ID}/whatsapp`, allowed: [...ADMINS, 'agenda_viewer'] },
  // Notifications (decisions D10): every role, own notifications only.
  { method: 'GET', path: '/api/v1/notifications', allowed: ROLES },
  { method: 'GET', path: '/api/v1/notifications/unread-count', allowed: ROLES },
  { method: 'PUT', path: '/api/v1/notifications/read-all', allowed: ROLES },
  { method: 'PUT', path: `/api/v1/notifications/${ID}/read`, allowed: ROLES },
  { method: 'DELETE', path: `/api/v1/notifications/${ID}`, allowed: ROLES },
  {
    method: 'POST',
    path: '/api/v1/notifications/push-token',
    allowed: ROLES,
    body: { token: 'ExponentPushToken[tabela]', plataforma: 'android' },
  },
  {
    method: 'DELETE',
    path: '/api/v1/notifications/push-token',
    allowed: ROLES,
    body: { token: 'ExponentPushToken[tabela]' },
  },
  // Activity log (decisions D15): administrators read it; only a SUPERADMIN verifies the chain.
  { method: 'GET', path: '/api/logs-atividade', allowed: ADMINS },
  { method: 'GET', path: '/api/logs-atividade/verificacao', allowed: ['SUPERADMIN'] },
  // Spreadsheet import and export (docs/decisions.md#d20): administrators.
  ...['profissionais', 'cadastro-fot', 'agenda', 'lancamentos'].map((tipo) => ({
    method: 'GET',
    path: `/api/importacoes/modelos/${tipo}.csv`,
    allowed: ADMINS,
  })),
  { method: 'POST', path: '/api/importacoes', allowed: ADMINS },
  { method: 'GET', path: `/api/importacoes/${ID}`, allowed: ADMINS },
  { method: 'GET', path: `/api/importacoes/${ID}/erros.csv`, allowed: ADMINS },
  { method: 'POST', path: `/api/importacoes/${ID}/aplicar`, allowed: ADMINS },
  // The file name as documented: authorization runs before the path is validated.
  { method: 'GET', path: '/api/exportacoes/{arquivo}', allowed: ADMINS },
  // Photo packages and orders (docs/decisions.md#d19): packages read by every role, written by administrators;
  // orders by administrators and EVENT_OWNERs (role checked before the Idempotency-Key).
  { method: 'GET', path: '/api/pacotes', allowed: ROLES },
  { method: 'GET', path: `/api/pacotes/${ID}`, allowed: ROLES },
  { method: 'POST', path: '/api/pacotes', allowed: ADMINS, body: { nome: 'Pacote da tabela', preco: 100 } },
  { method: 'PUT', path: `/api/pacotes/${ID}`, allowed: ADMINS, body: { preco: 120 } },
  { method: 'DELETE', path: `/api/pacotes/${ID}`, allowed: ADMINS },
  {
    method: 'POST',
    path: '/api/pedidos',
    allowed: [...ADMINS, 'EVENT_OWNER'],
    body: {
      fot_id: ID,
      pacote_id: ID,
      comprador_nome: 'Formando',
      comprador_email: 'formando@example.com',
      comprador_cpf: '52998224725',
      parcelas: 1,
    },
  },
  { method: 'GET', path: '/api/pedidos', allowed: [...ADMINS, 'EVENT_OWNER'] },
  { method: 'GET', path: `/api/pedidos/${ID}`, allowed: [...ADMINS, 'EVENT_OWNER'] },
  { method: 'POST', path: `/api/pedidos/${ID}/cancelar`, allowed: [...ADMINS, 'EVENT_OWNER'] },
  // Finance (decisions D18): administrators; EVENT_OWNER reads contracts; tax tables written by a SUPERADMIN.
  ...finance(),
  // Event operations (docs/decisions.md#d16): call sheets, confirmations, calendar feeds.
  {
    method: 'GET',
    path: `/api/agenda/${ID}/logistica`,
    allowed: [...ADMINS, 'agenda_viewer', 'EVENT_OWNER', 'profissional'],
  },
  {
    method: 'PUT',
    path: `/api/agenda/${ID}/logistica`,
    allowed: [...ADMINS, 'agenda_viewer'],
    body: { traje: 'Preto' },
  },
  {
    method: 'PATCH',
    path: `/api/agenda/${ID}/logistica`,
    allowed: [...ADMINS, 'agenda_viewer'],
    body: { credenciamento_enviado_em: '2099-01-01' },
  },
  { method: 'PATCH', path: `/api/convites/${ID}/confirmacao`, allowed: ['profissional'] },
  { method: 'PATCH', path: `/api/convites/${ID}/ciente`, allowed: ['profissional'] },
  { method: 'GET', path: '/api/me/calendario', allowed: ['profissional', 'agenda_viewer', 'EVENT_OWNER'] },
  { method: 'POST', path: '/api/me/calendario/rotacionar', allowed: ['profissional', 'agenda_viewer', 'EVENT_OWNER'] },
  { method: 'DELETE', path: '/api/me/calendario', allowed: ['profissional', 'agenda_viewer', 'EVENT_OWNER'] },
  // Job listings (decisions D17): professionals.
  { method: 'GET', path: '/api/vagas', allowed: ['profissional'] },
  { method: 'POST', path: `/api/vagas/${ID}/candidaturas`, allowed: ['profissional'], body: { funcao_id: ID } },
  // Support tickets (docs/decisions.md#d22): any active user; administrators manage.
  {
    method: 'POST',
    path: '/api/chamados',
    allowed: ROLES,
    body: { assunto: 'Tabela', categoria: 'outro', mensagem: 'Mensagem da tabela' },
  },
  { method: 'GET', path: '/api/chamados', allowed: ROLES },
  { method: 'GET', path: `/api/chamados/${ID}`, allowed: ROLES },
  { method: 'PATCH', path: `/api/chamados/${ID}`, allowed: ADMINS, body: { status: 'em_andamento' } },
  { method: 'POST', path: `/api/chamados/${ID}/mensagens`, allowed: ROLES, body: { corpo: 'Mensagem da tabela' } }, // Surveys (docs/decisions.md#d21): RESEARCHER and administrators.
  { method: 'GET', path: '/api/pesquisas', allowed: [...ADMINS, 'RESEARCHER'] },
  {
    method: 'POST',
    path: '/api/pesquisas',
    allowed: [...ADMINS, 'RESEARCHER'],
    body: { titulo: 'Tabela', publico: 'cliente' },
  },
  { method: 'GET', path: `/api/pesquisas/${ID}`, allowed: [...ADMINS, 'RESEARCHER'] },
  { method: 'PUT', path: `/api/pesquisas/${ID}`, allowed: [...ADMINS, 'RESEARCHER'], body: { titulo: 'Tabela' } },
  { method: 'DELETE', path: `/api/pesquisas/${ID}`, allowed: [...ADMINS, 'RESEARCHER'] },
  {
    method: 'POST',
    path: `/api/pesquisas/${ID}/envios`,
    allowed: [...ADMINS, 'RESEARCHER'],
    body: { destinatarios: [{ email: 'tabela@example.com' }] },
  },
  { method: 'GET', path: `/api/pesquisas/${ID}/resultados`, allowed: [...ADMINS, 'RESEARCHER'] },
  { method: 'GET', path: `/api/pesquisas/${ID}/respostas.csv`, allowed: [...ADMINS, 'RESEARCHER'] },
  { method: 'GET', path: '/api/me/avaliacoes', allowed: ['profissional'] },
];

function finance(): ProtectedRoute[] {
  const f = '/api/financeiro';
  const entry = { tipo: 'despesa', categoria_id: ID, descricao: 'x', valor: 1, vencimento: '2030-01-01' };
  const table = {
    inss_aliquota: 11,
    inss_teto: 1000,
    irrf_faixas: [{ ate: null, aliquota: 0, deducao: 0 }],
    iss_aliquota: 0,
  };
  return [
    ...catalogRoutes(`${f}/categorias`, { nome: 'Categoria da tabela', tipo: 'despesa' }).map((r) =>
      r.method === 'GET' ? { ...r, allowed: ADMINS } : r,
    ),
    { method: 'GET', path: `${f}/lancamentos`, allowed: ADMINS },
    { method: 'POST', path: `${f}/lancamentos`, allowed: ADMINS, body: entry },
    { method: 'GET', path: `${f}/lancamentos/${ID}`, allowed: ADMINS },
    { method: 'POST', path: `${f}/lancamentos/${ID}/pagar`, allowed: ADMINS },
    { method: 'POST', path: `${f}/lancamentos/${ID}/cancelar`, allowed: ADMINS },
    { method: 'POST', path: `${f}/lancamentos/${ID}/estornar`, allowed: ADMINS },
    {
      method: 'POST',
      path: `${f}/contratos`,
      allowed: ADMINS,
      body: { fot_id: ID, valor_total: 10, parcelas: 1, primeiro_vencimento: '2030-01-01' },
    },
    { method: 'GET', path: `${f}/contratos`, allowed: [...ADMINS, 'EVENT_OWNER'] },
    { method: 'GET', path: `${f}/resultado`, allowed: ADMINS },
    { method: 'GET', path: `${f}/tabelas-tributarias`, allowed: ADMINS },
    { method: 'PUT', path: `${f}/tabelas-tributarias/{vigencia}`, allowed: ['SUPERADMIN'], body: table },
    { method: 'GET', path: `${f}/repasses`, allowed: ADMINS },
    { method: 'POST', path: `${f}/repasses`, allowed: ADMINS, body: { de: '2030-01-01', ate: '2030-01-31' } },
    { method: 'GET', path: `${f}/repasses/${ID}`, allowed: ADMINS },
    { method: 'POST', path: `${f}/repasses/${ID}/aprovar`, allowed: ADMINS },
    { method: 'POST', path: `${f}/repasses/${ID}/pagar`, allowed: ADMINS },
    { method: 'POST', path: `${f}/repasses/${ID}/cancelar`, allowed: ADMINS },
    { method: 'GET', path: `${f}/repasses/${ID}/pix.csv`, allowed: ADMINS },
    { method: 'GET', path: `${f}/meus-pagamentos`, allowed: ['profissional'] },
  ];
}

export { ADMINS };
