import type { Deps } from '../types.js';

/**
 * The priority of a job about one invoice that is fair between clients (decision 0019): minus the
 * number of the client's jobs of that queue not yet finished (other than this invoice's), so a
 * client's first job goes before any client's second, its second before any third, whichever
 * instance works them. The queue must have started (its tables exist).
 */
export async function fairPriority(deps: Deps, queue: string, invoiceId: number): Promise<number> {
  const { rows } = (await deps.database.executeSql(
    `select count(*)::int as ahead from pgboss.job j
       join invoices i on i.id = (j.data->>'invoiceId')::int
      where j.name = $1 and j.state < 'completed'
        and i.client_id = (select client_id from invoices where id = $2) and i.id <> $2`,
    [queue, invoiceId],
  )) as { rows: Array<{ ahead: number }> };
  return -(rows[0]?.ahead ?? 0);
}
