import { ADMIN_ROLES } from '../../db/schema';
import { requireRole } from '../../middleware/require-role';
import { listResponse } from '../../lib/pagination';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { CreatePedidoRequest, IdempotencyHeader, PedidoListQuery, PedidoSchema } from './pedidos.schemas';

const tags = ['Photo packages and orders'];
const sellers = requireRole(...ADMIN_ROLES, 'EVENT_OWNER');

export const create = authedRoute({
  method: 'post',
  path: '/',
  tags,
  allow: sellers,
  regional: true,
  summary: "Order a photo package for a graduate (administrators; an EVENT_OWNER on its company's FOT records)",
  description:
    "Needs `Idempotency-Key`. Answers 201 with the new order (`status` pendente, `url_pagamento` null until the payment consumer has created the checkout, usually within a second), or 200 with the order an earlier request with the same key and body made. The same key with another body: 409 IDEMPOTENCY_MISMATCH. An unknown, other-region or other-company `fot_id`, or an unknown or inactive `pacote_id`: 404. More `parcelas` than the package's `parcelas_max`: 400. The graduate needs no account.",
  request: { headers: IdempotencyHeader, body: jsonBody(CreatePedidoRequest) },
  responses: {
    200: jsonResponse(PedidoSchema, 'The order an earlier request with this key made'),
    201: jsonResponse(PedidoSchema, 'Created'),
    404: errors[404],
    409: errors[409],
  },
});

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: sellers,
  regional: true,
  summary: "The region's orders, newest first (an EVENT_OWNER: those on its company's FOT records)",
  request: { query: PedidoListQuery },
  responses: { 200: listResponse(PedidoSchema, 'Orders') },
});

export const get = authedRoute({
  method: 'get',
  path: '/{id}',
  tags,
  allow: sellers,
  regional: true,
  summary: 'One order, with its payment url and status',
  request: { params: IdParam },
  responses: { 200: jsonResponse(PedidoSchema, 'The order'), 404: errors[404] },
});

export const cancel = authedRoute({
  method: 'post',
  path: '/{id}/cancelar',
  tags,
  allow: sellers,
  regional: true,
  summary: 'Cancel a pending order',
  description:
    'Only a `pendente` order (409 INVALID_STATE otherwise). A payment that still arrives for it makes it `pago`: the money came in.',
  request: { params: IdParam },
  responses: { 200: jsonResponse(PedidoSchema, 'Cancelled'), 404: errors[404], 409: errors[409] },
});
