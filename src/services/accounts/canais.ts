import { and, eq, sql } from 'drizzle-orm';
import { profissionais } from '../../db/schema';
import { toE164 } from '../../lib/brazil';
import { ApiError } from '../../lib/errors';
import { loggedUpdate } from '../core/activity-log';
import type { Ctx } from '../core/context';

/**
 * The channels a professional consents to (docs/decisions.md#d30, LGPD): today WhatsApp. Opting in
 * stores the profile's `whatsapp` in E.164 (lib/brazil.ts toE164; a number that cannot be read as
 * one refuses the opt-in with 400) and when consent was given; opting out clears both. Changing the
 * profile's number later clears them too (a trigger): consent was given for one number.
 */

export interface Canais {
  whatsapp: boolean;
  whatsapp_desde: string | null;
}

/** `canais` as GET /api/me answers it, from the linked profile's columns (none: nothing consented). */
export const toCanais = (p: { whatsappDesde: string | null } | null | undefined): Canais => ({
  whatsapp: !!p?.whatsappDesde,
  whatsapp_desde: p?.whatsappDesde ?? null,
});

const profileOf = (ctx: Pick<Ctx, 'db' | 'user'>) =>
  ctx.db
    .select({
      id: profissionais.id,
      regiao: profissionais.regiao,
      whatsapp: profissionais.whatsapp,
      whatsappDesde: profissionais.whatsappDesde,
    })
    .from(profissionais)
    .where(eq(profissionais.usuarioId, ctx.user.id));

/** PUT /api/me/canais: the caller's consent, logged (who consented to what, and when). */
export async function setCanais(ctx: Ctx, input: { whatsapp: boolean }): Promise<Canais> {
  const { db } = ctx;
  const [prof] = await profileOf(ctx);
  if (!prof) throw new ApiError('NOT_FOUND', 'perfil profissional não encontrado: cadastre seu perfil primeiro');
  let set: { whatsappE164: string | null; whatsappDesde: string | null | ReturnType<typeof sql> };
  if (input.whatsapp) {
    const e164 = prof.whatsapp ? toE164(prof.whatsapp) : undefined;
    if (!e164)
      throw new ApiError(
        'VALIDATION_FAILED',
        'whatsapp: o número do seu perfil não é um celular brasileiro válido com DDD; corrija-o no perfil antes de ativar o WhatsApp',
      );
    // Already consented for this number: the first consent's time stays.
    set = {
      whatsappE164: e164,
      whatsappDesde: sql`coalesce(${profissionais.whatsappDesde}, ${new Date().toISOString()})`,
    };
  } else set = { whatsappE164: null, whatsappDesde: null };
  // Guarded by the number read: a profile edited meanwhile is not consented for a number never checked.
  const where = and(
    eq(profissionais.id, prof.id),
    prof.whatsapp === null ? sql`${profissionais.whatsapp} is null` : eq(profissionais.whatsapp, prof.whatsapp),
  );
  const [, update, [after]] = await db.batch([
    ...loggedUpdate(
      ctx,
      { table: profissionais, where, set },
      { acao: 'profissionais.canais', entidade: 'profissionais', regiao: prof.regiao },
    ),
    db.select({ whatsappDesde: profissionais.whatsappDesde }).from(profissionais).where(eq(profissionais.id, prof.id)),
  ]);
  if (update.meta.changes === 0)
    throw new ApiError('CONFLICT', 'o perfil mudou enquanto isso: confira o número e tente de novo');
  return toCanais(after);
}
