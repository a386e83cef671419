/**
 * The import's writer (issue 38): reads what the plan needs (import-plan.ts `ImportCatalogue`),
 * lets the pure plan decide the rows, and writes them in ONE transaction, swapping the plan's
 * planned ids (negative) for the database's as it creates rows.
 */
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { ParsedInvoice } from '@kulu/invoices';
import {
  clientOperators,
  clients,
  costCategories,
  costCenters,
  costElements,
  invoiceLines,
  invoices,
  monthlyFacts,
  operators,
  planGroups,
  plans,
  skippedPhoneNumbers,
  subCompanies,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db, Tx } from '../../db/client.js';
import { insertRows, updateRows } from '../../db/bulk.js';
import { logActivity } from '../../lib/activity-log.js';
import type { PhaseClock } from '../../lib/phases.js';
import {
  checkImport,
  invoiceLabels,
  keptSubscriptions,
  OTHER_ELEMENT_NAME,
  planImport,
  referencedNumber,
  skippedKey,
  type ElementRef,
  type ImportCatalogue,
  type ImportHead,
  type ImportPlan,
} from './import-plan.js';

export {
  checkBuyer,
  companyNameKey,
  ImportRefusal,
  OTHER_ELEMENT_NAME,
  type ClientNames,
  type InvoiceBuyer,
  type RefusedInvoiceFacts,
} from './import-plan.js';

/** Test seam: called inside the import transaction after the lines are written (to fail midway). */
export const importTestHooks: { afterLines?: (invoiceId: number, tx: Tx) => void | Promise<void> } = {};

type Head = typeof invoices.$inferSelect;

/**
 * Writes a parsed invoice in ONE transaction: the header, subscriptions (created on first sight),
 * cost elements for new labels (auto-categorized where a plan group or a category rule matches),
 * lines and monthly facts, as `planImport` plans them. The client row is locked first, so imports
 * of one client run one at a time; the invoice row is re-checked, so a job that runs twice writes
 * once. Throws ImportRefusal for an invoice that must not be imported (`checkImport`: addressed to
 * another company, unknown operator, an operator the client has no contract with, already parsed);
 * any error rolls everything back. `clock` (measurement) gets a lap per step, named `import.*`.
 */
export async function importParsedInvoice(
  db: Db,
  invoiceId: number,
  parsed: ParsedInvoice,
  now: Date,
  clock?: PhaseClock,
  /** CLIENT_COST_ELEMENTS_MAX: the most cost elements of its own a client's uploads may add. */
  clientElementsMax = Infinity,
) {
  return db.transaction(async (tx) => {
    const [head] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for('update');
    if (!head || head.uploadState !== 'in_progress') return { imported: false as const };
    const operatorId = await checkParties(tx, head, parsed);
    clock?.lap('import.checks');
    const catalogue = await readCatalogue(tx, head, operatorId, parsed, clientElementsMax);
    const plan = planImport(parsed, catalogue, { head, now, clientElementsMax });
    clock?.lap('import.read');
    await writePlan(tx, head, plan, now, clock);
    if (importTestHooks.afterLines) await importTestHooks.afterLines(invoiceId, tx);
    await tx.update(invoices).set(plan.header).where(eq(invoices.id, invoiceId));
    clock?.lap('import.header');
    return { imported: true as const, clientId: head.clientId, ...plan.counts };
  });
}

/** Locks the client and reads whom the invoice is for and who sent it; refuses (checkImport) or gives the operator. */
async function checkParties(tx: Tx, head: Head, parsed: ParsedInvoice): Promise<number> {
  const [client] = await tx
    .select({ id: clients.id, businessId: clients.businessId, name: clients.companyName })
    .from(clients)
    .where(eq(clients.id, head.clientId))
    .for('update');
  const names =
    parsed.businessId == null
      ? [
          client.name,
          ...(
            await tx
              .select({ name: subCompanies.name })
              .from(subCompanies)
              .where(eq(subCompanies.clientId, head.clientId))
          ).map((r) => r.name),
        ]
      : [];
  const [operator] = await tx
    .select({ id: operators.id })
    .from(operators)
    .where(sql`lower(${operators.name}) = lower(${parsed.operator})`);
  const [contract] = operator
    ? await tx
        .select({ id: clientOperators.id })
        .from(clientOperators)
        .where(and(eq(clientOperators.clientId, head.clientId), eq(clientOperators.operatorId, operator.id)))
    : [];
  // The client's uploaded invoices of the operator of this number and of the one a copy or a
  // cancellation names.
  const numbers = [...new Set([parsed.invoiceNumber, referencedNumber(parsed)])];
  const known = operator
    ? await tx
        .select({ number: invoices.invoiceNumber })
        .from(invoices)
        .where(
          and(
            eq(invoices.clientId, head.clientId),
            eq(invoices.operatorId, operator.id),
            inArray(invoices.invoiceNumber, numbers),
            eq(invoices.uploadState, 'uploaded'),
          ),
        )
    : [];
  return checkImport(parsed, {
    client: { businessId: client.businessId, names },
    format: head.format,
    buyerConfirmed: head.buyerConfirmedAt !== null,
    operatorId: operator?.id ?? null,
    hasContract: !!contract,
    duplicate: known.some((k) => k.number === parsed.invoiceNumber),
    originalKnown: known.some((k) => k.number === referencedNumber(parsed)),
  });
}

/** The operator's cost elements of `names` (lower-cased) the client may use: its own, then the shared ones over them. */
async function elementsNamed(tx: Tx, clientId: number, operatorId: number, names: string[]) {
  const found = new Map<string, ElementRef>();
  if (!names.length) return found;
  const rows = await tx
    .select({ id: costElements.id, name: costElements.name, categoryId: costElements.costCategoryId })
    .from(costElements)
    .where(
      and(
        eq(costElements.operatorId, operatorId),
        inArray(sql`lower(${costElements.name})`, names),
        or(isNull(costElements.clientId), eq(costElements.clientId, clientId)),
      ),
    )
    .orderBy(sql`${costElements.clientId} is null`);
  for (const r of rows) found.set(r.name.toLowerCase(), { id: r.id, categoryId: r.categoryId });
  return found;
}

/** The client's own "Other charges" of the operator, where it exists. */
async function findOtherElement(tx: Tx, clientId: number, operatorId: number): Promise<ElementRef | null> {
  const [found] = await tx
    .select({ id: costElements.id, categoryId: costElements.costCategoryId })
    .from(costElements)
    .where(
      and(
        eq(costElements.operatorId, operatorId),
        eq(costElements.clientId, clientId),
        sql`lower(${costElements.name}) = lower(${OTHER_ELEMENT_NAME})`,
      ),
    );
  return found ?? null;
}

/** What the plan needs from the database (catalogue rows only new names need are read only then). */
async function readCatalogue(
  tx: Tx,
  head: Head,
  operatorId: number,
  parsed: ParsedInvoice,
  clientElementsMax: number,
): Promise<ImportCatalogue> {
  const clientId = head.clientId;
  const skippedRows = await tx
    .select({ phone: skippedPhoneNumbers.phoneNumber })
    .from(skippedPhoneNumbers)
    .where(or(isNull(skippedPhoneNumbers.clientId), eq(skippedPhoneNumbers.clientId, clientId)));
  const skipped = new Set(skippedRows.map((r) => skippedKey(r.phone)));
  const kept = keptSubscriptions(parsed, skipped);
  const labels = [...invoiceLabels(parsed, kept).keys()];
  const elements = await elementsNamed(tx, clientId, operatorId, labels);
  const freshNames = labels.filter((l) => !elements.has(l)).length;
  const ownNames = freshNames > 0 && head.source === 'upload';
  const [{ n: clientElements }] = ownNames
    ? await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(costElements)
        .where(eq(costElements.clientId, clientId))
    : [{ n: 0 }];
  // Names past the client's room go to its "Other charges" (planElements).
  const otherElement =
    ownNames && freshNames > Math.max(0, clientElementsMax - clientElements)
      ? await findOtherElement(tx, clientId, operatorId)
      : null;
  const categories = freshNames
    ? await tx
        .select({
          id: costCategories.id,
          name: costCategories.name,
          operatorId: costCategories.operatorId,
          usageType: costCategories.usageType,
          zone: costCategories.zone,
        })
        .from(costCategories)
    : [];
  const planRows = await tx
    .select({
      id: plans.id,
      name: plans.name,
      clientId: plans.clientId,
      groupCategoryId: planGroups.costCategoryId,
      groupAuto: planGroups.automaticCategorization,
    })
    .from(plans)
    .leftJoin(planGroups, eq(planGroups.id, plans.planGroupId))
    .where(and(eq(plans.operatorId, operatorId), or(isNull(plans.clientId), eq(plans.clientId, clientId))));
  const centers = await tx
    .select({ id: costCenters.id, name: costCenters.name, subCompanyId: costCenters.subCompanyId })
    .from(costCenters)
    .where(eq(costCenters.clientId, clientId));
  const known = await tx
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.clientId, clientId),
        sql`${subscriptions.phoneNumber} = any(${sql.param(kept.map((s) => s.phoneNumber))}::text[])`,
      ),
    );
  return {
    operatorId,
    skipped,
    elements,
    clientElements,
    otherElement,
    categories,
    plans: planRows,
    centers,
    subscriptions: new Map(known.map((s) => [s.phoneNumber, s])),
  };
}

const INSERT_CHUNK = 500;

/** The new cost elements and "Other charges" written; their planned ids → the rows as stored. */
async function writeElements(
  tx: Tx,
  head: ImportHead,
  plan: ImportPlan,
  now: Date,
  ids: Map<number, ElementRef>,
) {
  const { create, createOther, limited } = plan.elements;
  const operatorId = plan.operatorId;
  for (let i = 0; i < create.length; i += INSERT_CHUNK) {
    const chunk = create.slice(i, i + INSERT_CHUNK).map(({ ref: _ref, ...row }) => row);
    await tx.insert(costElements).values(chunk).onConflictDoNothing();
  }
  // Read back by name: a shared name another import wrote meanwhile is that one.
  const stored = await elementsNamed(
    tx,
    head.clientId,
    operatorId,
    create.map((e) => e.name.toLowerCase()),
  );
  for (const e of create) ids.set(e.ref, stored.get(e.name.toLowerCase())!);
  if (createOther != null) {
    const pick = { id: costElements.id, categoryId: costElements.costCategoryId };
    const [made] = await tx
      .insert(costElements)
      .values({
        name: OTHER_ELEMENT_NAME,
        operatorId,
        clientId: head.clientId,
        createdAt: now,
        updatedAt: now,
      })
      .returning(pick);
    ids.set(createOther, made);
  }
  if (limited) {
    await logActivity(tx, {
      userId: null,
      clientId: head.clientId,
      area: 'invoices',
      action: 'import',
      entity: 'invoice',
      entityId: head.id,
      after: { reason: 'costElementsLimited', ...limited, costElement: OTHER_ELEMENT_NAME },
    });
  }
}

/** The new cost centers written (one statement); their planned ids → the stored ids. */
async function writeCenters(tx: Tx, head: ImportHead, plan: ImportPlan, ids: Map<number, number>) {
  if (!plan.centers.length) return;
  await tx
    .insert(costCenters)
    .values(plan.centers.map(({ ref: _ref, ...row }) => row))
    .onConflictDoNothing();
  const rows = await tx
    .select({ id: costCenters.id, name: costCenters.name })
    .from(costCenters)
    .where(
      and(
        eq(costCenters.clientId, head.clientId),
        inArray(
          sql`lower(${costCenters.name})`,
          plan.centers.map((c) => c.name.toLowerCase()),
        ),
      ),
    );
  const idOf = new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
  for (const c of plan.centers) ids.set(c.ref, idOf.get(c.name.toLowerCase())!);
}

const SUBSCRIPTION_WRITE = [
  'id',
  'firstSeenMonth',
  'lastSeenMonth',
  'userName',
  'operatorId',
  'subCompanyId',
  'costCenterId',
  'currentPlanId',
  'updatedAt',
] as const;
const SUBSCRIPTION_INSERT = [
  'clientId',
  'phoneNumber',
  'userName',
  'operatorId',
  'subCompanyId',
  'costCenterId',
  'currentPlanId',
  'firstSeenMonth',
  'lastSeenMonth',
  'createdAt',
  'updatedAt',
] as const;
const LINE_COLUMNS = [
  'invoiceId',
  'clientId',
  'subscriptionId',
  'position',
  'label',
  'costElementId',
  'category',
  'region',
  'periodStart',
  'periodEnd',
  'count',
  'quantity',
  'unit',
  'unitPrice',
  'amount',
  'unitCode',
] as const;
const FACT_COLUMNS = [
  'clientId',
  'invoiceId',
  'operatorId',
  'subscriptionId',
  'subCompanyId',
  'costCenterId',
  'month',
  'costElementId',
  'costCategoryId',
  'amount',
  'quantity',
  'unit',
] as const;

/** The plan's rows written, each kind in one statement (db/bulk.ts), created rows' ids swapped in. */
async function writePlan(tx: Tx, head: Head, plan: ImportPlan, now: Date, clock?: PhaseClock) {
  const elements = new Map<number, ElementRef>();
  await writeElements(tx, head, plan, now, elements);
  clock?.lap('import.elements');
  const centers = new Map<number, number>();
  await writeCenters(tx, head, plan, centers);
  const center = (id: number | null | undefined) => (id != null && id < 0 ? centers.get(id)! : (id ?? null));
  clock?.lap('import.centers');
  const subs = plan.subscriptions;
  const refresh = subs.refresh.map((row) => ({ ...row, costCenterId: center(row.costCenterId) }));
  await updateRows(tx, subscriptions, SUBSCRIPTION_WRITE, refresh);
  await updateRows(tx, subscriptions, ['id', 'firstSeenMonth'], subs.backdate);
  const created = await insertRows<typeof subscriptions, { id: number; phoneNumber: string }>(
    tx,
    subscriptions,
    SUBSCRIPTION_INSERT,
    subs.create.map(({ ref: _ref, ...row }) => ({ ...row, costCenterId: center(row.costCenterId) })),
    sql`${subscriptions.id}, ${subscriptions.phoneNumber} as "phoneNumber"`,
  );
  const subIdOf = new Map(created.map((r) => [r.phoneNumber, r.id]));
  const phoneOf = new Map(subs.create.map((s) => [s.ref, s.phoneNumber]));
  const sub = (id: number | null | undefined) =>
    id != null && id < 0 ? subIdOf.get(phoneOf.get(id)!)! : (id ?? null);
  const element = (id: number) => (id < 0 ? elements.get(id)! : null);
  clock?.lap('import.subscriptions');
  const lines = plan.lines.map((l) => ({
    ...l,
    subscriptionId: sub(l.subscriptionId),
    costElementId: element(l.costElementId)?.id ?? l.costElementId,
  }));
  await insertRows(tx, invoiceLines, LINE_COLUMNS, lines);
  clock?.lap('import.lines');
  // One statement: monthly_facts' statement trigger (migration 0007) folds them into the summaries once.
  const facts = plan.facts.map((f) => {
    const made = element(f.costElementId);
    return {
      ...f,
      subscriptionId: sub(f.subscriptionId),
      costCenterId: center(f.costCenterId),
      costElementId: made?.id ?? f.costElementId,
      costCategoryId: made ? made.categoryId : f.costCategoryId,
    };
  });
  await insertRows(tx, monthlyFacts, FACT_COLUMNS, facts);
  clock?.lap('import.facts');
}
