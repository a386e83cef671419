import type { ActivityAction, ActivityArea } from '@kulu/shared';
import { activityLog } from '../db/schema/index.js';
import type { Executor } from '../db/client.js';

/**
 * The activity log (issue 11): who changed what, when, for which client, with the row before and
 * after. Written with the caller's transaction, so the change and its log row commit or roll back
 * together. `before` / `after` are the entity as the API answers it: never a secret.
 */
export interface ActivityEntry {
  /** null: the system (a job), not a person. */
  userId: number | null;
  clientId?: number | null;
  /** The part of the product: 'clients', 'contracts', 'masters', … (each with its words, packages/shared). */
  area: ActivityArea;
  /** create | update | delete | convert | assign | … (each with its words, packages/shared). */
  action: ActivityAction;
  /** The kind of row: 'client', 'contract', a master's key, … */
  entity: string;
  entityId?: number | null;
  before?: unknown;
  after?: unknown;
}

/** A JSON value that PostgreSQL's jsonb takes: dates as ISO strings, undefined left out. */
const jsonOf = (v: unknown): unknown =>
  v === undefined || v === null ? null : JSON.parse(JSON.stringify(v));

export async function logActivity(tx: Executor, entry: ActivityEntry): Promise<void> {
  await tx.insert(activityLog).values({
    userId: entry.userId,
    clientId: entry.clientId ?? null,
    area: entry.area,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    before: jsonOf(entry.before),
    after: jsonOf(entry.after),
  });
}

/**
 * The log of a module's changes to one kind of row, each by a signed-in caller:
 * `log(tx, caller, id, action, before, after)`, the entity's name overridable per entry (a part
 * of the row, e.g. a client's assigned companies). `clientRows`: the rows are clients, so each
 * entry names its client too.
 */
export const changeLog =
  (area: ActivityArea, entity: string, opts: { clientRows?: boolean } = {}) =>
  (
    tx: Executor,
    caller: { user: { id: number } },
    id: number,
    action: ActivityAction,
    before: unknown,
    after: unknown,
    what = entity,
  ) =>
    logActivity(tx, {
      userId: caller.user.id,
      clientId: opts.clientRows ? id : null,
      area,
      action,
      entity: what,
      entityId: id,
      before,
      after,
    });
