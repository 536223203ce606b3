import { z } from '@hono/zod-openapi';
import { requireAdmin } from '../../middleware/require-role';
import { jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { EquipamentoSchema, PutEquipamentosRequest } from './equipamentos.schemas';

const tags = ['Planning'];

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "The region's equipment: stock and professionals' studios (administrators)",
  description:
    'Every resource the planner counts, in a fixed order, with the stock the office set and the studios professionals bring.',
  responses: { 200: jsonResponse(z.array(EquipamentoSchema), 'One item per resource') },
});

export const put = authedRoute({
  method: 'put',
  path: '/',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Set the stock of some resources (administrators)',
  description:
    "Each item sets one resource's quantity; resources not sent keep theirs. All or nothing, logged (`equipamentos.save`). Answers the whole list, as GET.",
  request: { body: jsonBody(PutEquipamentosRequest) },
  responses: { 200: jsonResponse(z.array(EquipamentoSchema), 'The list after the change') },
});
