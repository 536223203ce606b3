import { ApiError } from '../../lib/errors';
import { eventWhatsapp } from '../../services/whatsapp/status';
import {
  handshake as answerHandshake,
  receive as receiveDelivery,
  verifySignature,
} from '../../services/whatsapp/webhook';
import { handler } from '../route';
import * as r from './whatsapp.routes';

export const handshake = handler(r.handshake, async (c, ctx) => {
  const q = c.req.valid('query');
  const challenge = answerHandshake(ctx.config, {
    mode: q['hub.mode'],
    token: q['hub.verify_token'],
    challenge: q['hub.challenge'],
  });
  if (challenge === undefined) throw new ApiError('FORBIDDEN', 'token de verificação inválido');
  return c.text(challenge, 200);
});

export const receive = handler(r.receive, async (c, ctx) => {
  // The signature covers the exact bytes: read them before anything parses the body.
  const raw = await c.req.arrayBuffer();
  if (!(await verifySignature(ctx.config.WHATSAPP_APP_SECRET, c.req.valid('header')['x-hub-signature-256'], raw)))
    throw new ApiError('INVALID_SIGNATURE', 'assinatura do webhook inválida');
  await receiveDelivery(ctx, new TextDecoder().decode(raw), new Date());
  return c.json({ message: 'recebida' }, 200);
});

export const eventStatus = handler(r.eventStatus, async (c, ctx) =>
  c.json(await eventWhatsapp(ctx, c.req.valid('param').id), 200),
);
