import { allowAgenda } from '../../middleware/require-role';
import { errors, IdParam, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { AplicacaoSchema, AplicarHeaders } from './regras-aplicar.schemas';

export const aplicar = authedRoute({
  method: 'post',
  path: '/{id}/regras/aplicar',
  tags: ['Rules'],
  allow: allowAgenda('create'),
  regional: true,
  summary: 'Apply the rules in force to the event: quotas, resources, credential deadline, fees (planners)',
  description:
    "In one batch (docs/decisions.md#d25): the suggested team quota per function (other settings of a function kept), the `qtd_*` resources the rules size, the call sheet's `prazo_credenciamento` (created if none), and one `previsto` expense per fee in the system category `Taxa de instituição` (chave_externa `taxa:<event>:<fee>`, once per event and fee whatever the key: applying again leaves fees already written). Idempotent per caller and Idempotency-Key: the first application answers 201, a repeat 200 with the same body and nothing written twice.",
  request: { params: IdParam, headers: AplicarHeaders },
  responses: {
    200: jsonResponse(AplicacaoSchema, 'A repeat of this key: the first application'),
    201: jsonResponse(AplicacaoSchema, 'Applied'),
    404: errors[404],
    409: errors[409],
  },
});
