import { desc } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { agenda } from './agenda';
import { cadastroFot } from './cadastro-fot';
import { timestamps, uuidPk } from './columns';
import { users } from './users';

export const CHAMADO_CATEGORIAS = ['pagamento', 'agenda', 'cadastro', 'acesso', 'outro'] as const;
export const CHAMADO_STATUS = ['aberto', 'em_andamento', 'aguardando_solicitante', 'resolvido', 'fechado'] as const;
export const CHAMADO_PRIORIDADES = ['baixa', 'normal', 'alta', 'urgente'] as const;
export type ChamadoStatus = (typeof CHAMADO_STATUS)[number];

/** Support tickets (docs/decisions.md#d22), per region. */
export const chamados = sqliteTable(
  'chamados',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    solicitanteId: text('solicitante_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assunto: text('assunto').notNull(),
    categoria: text('categoria', { enum: CHAMADO_CATEGORIAS }).notNull(),
    status: text('status', { enum: CHAMADO_STATUS }).notNull().default('aberto'),
    prioridade: text('prioridade', { enum: CHAMADO_PRIORIDADES }).notNull().default('normal'),
    responsavelId: text('responsavel_id').references(() => users.id, { onDelete: 'set null' }),
    agendaId: text('agenda_id').references(() => agenda.id, { onDelete: 'set null' }),
    fotId: text('fot_id').references(() => cadastroFot.id, { onDelete: 'set null' }),
    /** When it last became `resolvido`: the scheduled job closes it 7 days later. */
    resolvidoEm: text('resolvido_em'),
    ...timestamps,
  },
  (t) => [
    index('chamados_regiao_updated_idx').on(t.regiao, desc(t.updatedAt), t.id),
    index('chamados_regiao_status_idx').on(t.regiao, t.status),
    // A requester's own tickets of the region in the list's order: its list reads its own rows, not the region's.
    index('chamados_solicitante_idx').on(t.solicitanteId, t.regiao, desc(t.updatedAt), t.id),
    index('chamados_responsavel_idx').on(t.responsavelId),
    index('chamados_status_resolvido_idx').on(t.status, t.resolvidoEm),
    index('chamados_agenda_idx').on(t.agendaId),
    index('chamados_fot_idx').on(t.fotId),
  ],
);

/** A ticket's messages; `interna` ones are notes between administrators, never shown to the requester. */
export const chamadoMensagens = sqliteTable(
  'chamado_mensagens',
  {
    id: uuidPk(),
    chamadoId: text('chamado_id')
      .notNull()
      .references(() => chamados.id, { onDelete: 'cascade' }),
    autorId: text('autor_id').references(() => users.id, { onDelete: 'set null' }),
    corpo: text('corpo').notNull(),
    interna: integer('interna', { mode: 'boolean' }).notNull().default(false),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('chamado_mensagens_chamado_idx').on(t.chamadoId, t.createdAt),
    index('chamado_mensagens_autor_idx').on(t.autorId),
  ],
);

export type ChamadoRow = typeof chamados.$inferSelect;
