import type { PgColumn } from 'drizzle-orm/pg-core';
import { clients } from '../../db/schema/index.js';
import type { ParentDef } from '../../lib/resource/resource.service.js';

/**
 * A client section's rows nested under their client (`/api/clients/:clientId/…`): `column` points
 * at the client of the path, which must be a client the caller's Scope may see (else 404: the access
 * plugin checks it, `isClient`).
 */
export const underClient = (column: PgColumn): ParentDef => ({
  param: 'clientId',
  column,
  parentId: clients.id,
  parentScope: { clientId: clients.id },
  isClient: true,
});
