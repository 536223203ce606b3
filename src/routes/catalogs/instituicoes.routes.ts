import { requireAdmin } from '../../middleware/require-role';
import { jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { catalogRoutes } from './catalogs.routes';
import {
  CreateInstituicaoRequest,
  InstituicaoResponse,
  instituicoesConfig,
  VincularResponse,
} from './instituicoes.schemas';

export const { list, publicList, create, update, remove } = catalogRoutes(instituicoesConfig, {
  request: CreateInstituicaoRequest,
  response: InstituicaoResponse,
});

export const vincular = authedRoute({
  method: 'post',
  path: '/vincular',
  tags: [instituicoesConfig.tag],
  allow: requireAdmin,
  regional: true,
  summary: "Link the region's FOT records to institutions by their free-text name (administrators)",
  description:
    'Every FOT record of the region without `instituicao_id` whose `instituicao` text equals a catalog name, ignoring case, accents and spaces, gets that entry. A text that matches two entries is left alone. Safe to repeat: a linked record is never linked again. Each linked record is in the activity log (`cadastro_fot.vincular_instituicao`).',
  responses: { 200: jsonResponse(VincularResponse, 'Linked') },
});
