import {
  eventKeyForDisplay,
  eventQr,
  getCheckinSettings,
  putCheckinSettings,
  rotateEventKey,
} from '../../services/checkin/settings';
import { registrarManual, registrarPresenca, revisarPresenca } from '../../services/checkin/presencas';
import { personalQr, registrarLeituras } from '../../services/checkin/pessoal';
import { listaPresencas } from '../../services/checkin/lista';
import { desfazerFalta as undoFalta, registrarFalta } from '../../services/checkin/faltas';
import { handler } from '../route';
import * as r from './checkin.routes';

export const getSettings = handler(r.getSettings, async (c, ctx) =>
  c.json(await getCheckinSettings(ctx, c.req.valid('param').id), 200),
);

export const putSettings = handler(r.putSettings, async (c, ctx) =>
  c.json(await putCheckinSettings(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const qr = handler(r.eventQr, async (c, ctx) => c.json(await eventQr(ctx, c.req.valid('param').id), 200));

export const key = handler(r.eventKey, async (c, ctx) =>
  c.json(await eventKeyForDisplay(ctx, c.req.valid('param').id), 200),
);

export const rotate = handler(r.rotateKey, async (c, ctx) =>
  c.json(await rotateEventKey(ctx, c.req.valid('param').id), 200),
);

export const leituras = handler(r.leituras, async (c, ctx) =>
  c.json(await registrarLeituras(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const manual = handler(r.manual, async (c, ctx) => {
  const { created, presenca } = await registrarManual(ctx, c.req.valid('param').id, c.req.valid('json'));
  return created ? c.json(presenca, 201) : c.json(presenca, 200);
});

export const lista = handler(r.lista, async (c, ctx) =>
  c.json(await listaPresencas(ctx, c.req.valid('param').id), 200),
);

export const checkin = handler(r.checkin, async (c, ctx) => {
  const { created, presenca } = await registrarPresenca(ctx, c.req.valid('json'));
  return created ? c.json(presenca, 201) : c.json(presenca, 200);
});

export const revisar = handler(r.revisar, async (c, ctx) =>
  c.json(await revisarPresenca(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const pessoal = handler(r.personalQr, async (c, ctx) =>
  c.json(await personalQr(ctx, c.req.valid('param').id), 200),
);

export const falta = handler(r.falta, async (c, ctx) => {
  const { created, falta } = await registrarFalta(ctx, c.req.valid('param').id, c.req.valid('json') ?? {});
  return created ? c.json(falta, 201) : c.json(falta, 200);
});

export const desfazerFalta = handler(r.desfazerFalta, async (c, ctx) =>
  c.json(await undoFalta(ctx, c.req.valid('param').id, c.req.valid('json') ?? {}), 200),
);
