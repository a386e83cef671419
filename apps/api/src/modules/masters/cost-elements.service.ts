import { and, eq, inArray, sql } from 'drizzle-orm';
import { costCategories, costElements, monthlyFacts } from '../../db/schema/index.js';
import type { Db, Tx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { AuthUser } from '../../types.js';

/**
 * Cost elements (invoice line labels) move uncategorized → categorized (by an admin) or
 * auto_categorized (by an import) → approved. Assigning a category, one or many at once,
 * makes them categorized; approval needs a category. The monthly facts keyed by an element
 * carry its category and follow it in the same transaction.
 */

/** Copies the elements' current category onto the monthly facts keyed by them. */
export async function recategorizeFacts(tx: Tx, costElementIds: number[]): Promise<void> {
  if (!costElementIds.length) return;
  await tx
    .update(monthlyFacts)
    .set({
      costCategoryId: sql`(select ${costElements.costCategoryId} from ${costElements} where ${costElements.id} = ${monthlyFacts.costElementId})`,
    })
    .where(inArray(monthlyFacts.costElementId, costElementIds));
}

export async function categorizeCostElements(db: Db, ids: number[], costCategoryId: number): Promise<number> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const [cat] = await tx
      .select({ id: costCategories.id })
      .from(costCategories)
      .where(eq(costCategories.id, costCategoryId));
    if (!cat) throw new AppError(400, 'validation', { costCategoryId: 'invalid' });
    const found = await tx
      .select({ id: costElements.id })
      .from(costElements)
      .where(inArray(costElements.id, unique));
    if (found.length !== unique.length) throw notFound();
    const updated = await tx
      .update(costElements)
      .set({
        costCategoryId,
        status: 'categorized',
        approvedAt: null,
        approvedBy: null,
        updatedAt: new Date(),
      })
      .where(inArray(costElements.id, unique))
      .returning({ id: costElements.id });
    await recategorizeFacts(tx, unique);
    return updated.length;
  });
}

export async function approveCostElements(db: Db, me: AuthUser, ids: number[], now: Date): Promise<number> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: costElements.id, costCategoryId: costElements.costCategoryId })
      .from(costElements)
      .where(inArray(costElements.id, unique));
    if (rows.length !== unique.length) throw notFound();
    if (rows.some((r) => r.costCategoryId == null)) throw new AppError(409, 'costElementNotCategorized');
    const updated = await tx
      .update(costElements)
      .set({ status: 'approved', approvedAt: now, approvedBy: me.id, updatedAt: now })
      .where(and(inArray(costElements.id, unique)))
      .returning({ id: costElements.id });
    return updated.length;
  });
}
