/**
 * The professional profile as an account carries it: the response mapper, the columns a body writes and
 * the PIX rules (docs/guide/professionals.md). Accounts answer it in /api/me and login; professionals
 * write it. It lives with accounts so that both reach it in the domain order.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  notifications,
  profissionais,
  users,
  type AuthUser,
  type NotificationRow,
  type ProfissionalRow,
  type RegimeFiscal,
  type TipoChavePix,
} from '../../db/schema';
import { generatedId } from '../../db/generated-id';
import { inferPixKey, pixKey } from '../../lib/brazil';
import { ApiError } from '../../lib/errors';
import { isAdmin } from '../../lib/permissions';
import type { Config } from '../../env';
import type { Ctx } from '../core/context';
import { prepareEmail } from '../core/mail';
import { notifiedPush } from '../core/notifications';

/** Mean of the ratings that are set, 2 decimals; null when none is. Always computed, never stored. */
export function media(p: Pick<ProfissionalRow, 'qualTec' | 'educacaoSimpatia' | 'desempenhoEvento' | 'dispHorario'>) {
  const set = [p.qualTec, p.educacaoSimpatia, p.desempenhoEvento, p.dispHorario].filter((v): v is number => v !== null);
  if (set.length === 0) return null;
  return Math.round((set.reduce((a, b) => a + b, 0) / set.length) * 100) / 100;
}

export function toProfissionalResponse(
  p: ProfissionalRow,
  opts: { funcaoNome: string | null; funcoes?: { id: string; nome: string }[]; showPrivate: boolean },
) {
  const privateFields = opts.showPrivate
    ? {
        banco: p.banco,
        agencia: p.agencia,
        conta_pix: p.contaPix,
        tipo_chave_pix: p.tipoChavePix,
        cpf_cnpj_titular: p.cpfCnpjTitular,
        tipo_cartao: p.tipoCartao,
      }
    : {};
  return {
    id: p.id,
    usuario_id: p.usuarioId,
    regiao: p.regiao,
    email: p.email,
    nome: p.nome,
    funcao_profissional_id: p.funcaoProfissionalId,
    funcao_profissional: opts.funcaoNome,
    ...(opts.funcoes ? { funcoes: opts.funcoes } : {}),
    whatsapp: p.whatsapp,
    endereco: p.endereco,
    cidade: p.cidade,
    uf: p.uf,
    ...privateFields,
    regime_fiscal: p.regimeFiscal,
    tabela_free: p.tabelaFree,
    equipamentos: p.equipamentos,
    observacao: p.observacao,
    carro_disponivel: p.carroDisponivel,
    tem_estudio: p.temEstudio,
    qtd_estudio: p.qtdEstudio,
    extra_por_equipamento: p.extraPorEquipamento,
    qual_tec: p.qualTec,
    educacao_simpatia: p.educacaoSimpatia,
    desempenho_evento: p.desempenhoEvento,
    disp_horario: p.dispHorario,
    media: media(p),
    avatar_url: p.avatarUrl,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

const wireToColumn = {
  nome: 'nome',
  whatsapp: 'whatsapp',
  endereco: 'endereco',
  cidade: 'cidade',
  uf: 'uf',
  banco: 'banco',
  agencia: 'agencia',
  conta_pix: 'contaPix',
  tipo_chave_pix: 'tipoChavePix',
  regime_fiscal: 'regimeFiscal',
  cpf_cnpj_titular: 'cpfCnpjTitular',
  tipo_cartao: 'tipoCartao',
  tabela_free: 'tabelaFree',
  equipamentos: 'equipamentos',
  observacao: 'observacao',
  carro_disponivel: 'carroDisponivel',
  tem_estudio: 'temEstudio',
  qtd_estudio: 'qtdEstudio',
  extra_por_equipamento: 'extraPorEquipamento',
  avatar_url: 'avatarUrl',
  funcao_profissional_id: 'funcaoProfissionalId',
  qual_tec: 'qualTec',
  educacao_simpatia: 'educacaoSimpatia',
  desempenho_evento: 'desempenhoEvento',
  disp_horario: 'dispHorario',
  email: 'email',
} as const satisfies Record<string, keyof ProfissionalRow>;

/** Wire fields → columns, for the fields present only (a PUT changes what it carries). */
export function profissionalColumns(b: Record<string, unknown>): Partial<ProfissionalRow> {
  const out: Record<string, unknown> = {};
  for (const [wire, col] of Object.entries(wireToColumn)) if (b[wire] !== undefined) out[col] = b[wire];
  return out as Partial<ProfissionalRow>;
}

type StoredPix = { contaPix: string | null; tipoChavePix: TipoChavePix | null };
const NO_PIX: StoredPix = { contaPix: null, tipoChavePix: null };
/** The PIX pair a write stores: both set (the key valid for its type, normalized) or both null. */
export type PixPair = { chave: string; tipo: TipoChavePix } | { chave: null; tipo: null };

/**
 * The PIX pair of a write (docs/decisions.md#d18-finance): when the body sends `conta_pix` or
 * `tipo_chave_pix`, the body answered carries both as they are to be stored, or neither when the
 * stored pair stays; a violation is 400 VALIDATION_FAILED. `current` is the stored pair (checkPixPair
 * says how it is used).
 */
export function withPixChecked<T extends Record<string, unknown>>(body: T, current: StoredPix = NO_PIX): T {
  const checked = checkPixPair(body, current);
  if (checked && 'error' in checked) throw new ApiError('VALIDATION_FAILED', checked.error);
  if (!checked) {
    // The stored key sent back unchanged (a whole form saved again): the pair is not written.
    const { conta_pix: _k, tipo_chave_pix: _t, ...rest } = body;
    return rest as T;
  }
  return { ...body, conta_pix: checked.chave, tipo_chave_pix: checked.tipo };
}

/**
 * The same rule for one write (also a spreadsheet row): the pair to store, an `{error}` naming its
 * field, or undefined when the write leaves the stored pair as it is.
 * - The stored pair sent back as it is (the key without a type, or with the stored one) changes
 *   nothing and is not checked again: a frontend that saves the whole form, a key stored before the
 *   type existed.
 * - A type sent is checked against the key (the one sent, else the stored one): lib/brazil.ts pixKey.
 * - A key without a type (absent or null) gets the type the key itself shows (lib/brazil.ts
 *   inferPixKey), never the stored type, which belonged to the old key.
 * - `conta_pix: null` without a type clears both; a type without any key is refused.
 */
export function checkPixPair(
  body: Record<string, unknown>,
  current: StoredPix,
): { error: string } | PixPair | undefined {
  if (body.conta_pix === undefined && body.tipo_chave_pix === undefined) return undefined;
  const chave = body.conta_pix === undefined ? current.contaPix : ((body.conta_pix as string | null) ?? null);
  const sentTipo = body.tipo_chave_pix as TipoChavePix | null | undefined;
  if (chave === current.contaPix && (sentTipo === undefined || sentTipo === current.tipoChavePix)) return undefined;
  const tipo = sentTipo ?? null;
  if (chave === null)
    return tipo === null
      ? { chave: null, tipo: null }
      : { error: `conta_pix: é obrigatória com tipo_chave_pix ${tipo}` };
  if (tipo !== null) {
    const checked = pixKey(tipo, chave);
    return 'error' in checked ? { error: `conta_pix: ${checked.error}` } : { chave: checked.chave, tipo };
  }
  const inferred = inferPixKey(chave);
  return 'error' in inferred ? { error: `tipo_chave_pix: ${inferred.error}` } : inferred;
}

/**
 * `regime_fiscal` decides a professional's tax withholding: only administrators change it
 * (docs/decisions.md#d18-finance). A professional that sends the value it already has (a form saved
 * whole) is not refused, and the write leaves the column alone; another value is 403. `stored` is
 * the profile's value, `mei` for a profile being created.
 */
export function withoutOwnRegime<T extends Record<string, unknown>>(
  user: Pick<AuthUser, 'role'>,
  body: T,
  stored: RegimeFiscal,
): T {
  if (isAdmin(user.role) || body.regime_fiscal === undefined) return body;
  if (body.regime_fiscal !== stored)
    throw new ApiError(
      'FORBIDDEN',
      `regime_fiscal: só um administrador altera o regime fiscal (o deste cadastro é ${stored}); os demais campos podem ser enviados sem ele`,
    );
  const { regime_fiscal: _same, ...rest } = body;
  return rest as T;
}

/** What the notices of a PIX change need of the request's context: the session, the e-mail and push channels. */
export type PixNoticeCtx = Pick<Ctx, 'db' | 'push' | 'mail'> & { config: Pick<Config, 'JWT_SECRET'> };

/** A change of a profile's PIX pair: the update's own condition, the new pair, the profile's region and who changes it. */
export interface PixChange {
  where: SQL;
  pair: PixPair;
  regiao: string;
  actor: Pick<AuthUser, 'id' | 'email' | 'nome'>;
}

/**
 * A profile's own user changing its PIX pair (a stolen session could redirect the next payout:
 * SECURITY.md "Payout keys") is told to that user (a notification and an e-mail) and to the
 * region's administrators (a notification). The statements go in the write's batch BEFORE its
 * update, and each writes only when that update is about to change the stored pair of a profile
 * (`where`, the update's own condition) linked to the actor: an administrator's change of someone
 * else's key, a key sent again and a write that does not happen tell nobody. `settle` takes the
 * batch's results for these statements (at `at`) and hands the push messages and the e-mail on.
 */
export async function pixChangeNotices(ctx: PixNoticeCtx, { where, pair, regiao, actor }: PixChange) {
  const { db } = ctx;
  const now = new Date();
  const changes = and(
    where,
    eq(profissionais.usuarioId, actor.id),
    sql`(${profissionais.contaPix} is not ${pair.chave} or ${profissionais.tipoChavePix} is not ${pair.tipo})`,
  )!;
  const at = now.toISOString();
  const own =
    'Sua chave PIX foi alterada. Se não foi você, troque sua senha agora e avise um administrador antes do próximo repasse.';
  // Columns in table order: id, user_id, tipo, titulo, mensagem, dados, lida, read_at, created_at, updated_at.
  // One row per recipient: the join meets each user once (the owner, every administrator of the region).
  const notify = db
    .insert(notifications)
    .select(
      sql`select ${generatedId}, ${users.id}, 'chave_pix_alterada', 'Chave PIX alterada',
        case when ${users.id} = ${profissionais.usuarioId} then ${own}
          else 'A chave PIX de ' || ${profissionais.nome} || ' foi alterada pelo próprio profissional; confira antes de aprovar o próximo repasse.' end,
        json_object('profissional_id', ${profissionais.id}), 0, null, ${at}, ${at}
      from ${profissionais} join ${users} on (${users.id} = ${profissionais.usuarioId} or ${regionAdmin(regiao)})
      where ${changes}`,
    )
    .returning();
  const mail = await prepareEmail(
    { db, config: ctx.config },
    {
      para: actor.email,
      tipo: 'chave_pix_alterada',
      dados: { nome: actor.nome, tipo_chave_pix: pair.tipo, final: pair.chave?.slice(-4) ?? null },
      when: sql`exists (select 1 from ${profissionais} where ${changes})`,
    },
    now,
  );
  return {
    /** The notifications (RETURNING them, for the push) and the e-mail's outbox row, for the write's batch. */
    notify,
    mail: mail.insert,
    /** After the batch: the notifications it wrote, and whether the outbox row was written. */
    settle(notified: NotificationRow[], mailed: { changes: number }) {
      ctx.push(notifiedPush(notified));
      if (mailed.changes > 0) ctx.mail([mail.id]);
    },
  };
}

/** The PIX pair a checked body writes (withPixChecked sets both fields or neither). */
export const pixOf = (body: Record<string, unknown>): PixPair | undefined =>
  body.conta_pix === undefined ? undefined : ({ chave: body.conta_pix, tipo: body.tipo_chave_pix ?? null } as PixPair);

/**
 * The administrators of a region (docs/guide/tickets.md): users have no region, so an
 * administrator belongs to the region of its linked professional profile (D4: an administrator
 * account gets one in the region it was created in); a SUPERADMIN without a profile belongs to
 * every region. Active accounts only. SQL over `users`, to use in a WHERE.
 */
export const regionAdmin = (regiao: string) =>
  sql`(${users.ativo} = 1 and ${users.role} in ('SUPERADMIN', 'BUSINESS_OWNER') and (
    exists (select 1 from ${profissionais} where ${profissionais.usuarioId} = ${users.id} and ${profissionais.regiao} = ${regiao})
    or (${users.role} = 'SUPERADMIN' and not exists (select 1 from ${profissionais} where ${profissionais.usuarioId} = ${users.id}))))`;
