import { and, asc, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  CONVERTED_MESSAGE,
  ROLE,
  type AssignedCompanies,
  type Client,
  type ClientCreate,
  type ClientKind,
  type ClientList,
  type ClientListQuery,
  type ClientUpdate,
  type InterestedListQuery,
  type MessageCode,
} from '@kulu/shared';
import {
  clientBillingPlans,
  clients,
  consultantCompanies,
  operators,
  portalCredentials,
  users,
} from '../../db/schema/index.js';
import type { Db, Executor, Tx } from '../../db/client.js';
import { changeLog } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import { checkOutboundUrl, OutboundUrlError } from '../../lib/outbound-url.js';
import { containsPattern } from '../../lib/resource/resource.service.js';
import type { Caller } from '../../types.js';
import { encrypt } from '../../lib/secrets.js';
import type { Scope } from '../../lib/scope.js';
import { mailTemplates } from '../../lib/mail-templates/index.js';
import { sendActivationMail } from '../auth/auth.service.js';
import type { Deps } from '../../types.js';
import { conflictAs, isoTimeOrNull as iso } from '../../lib/db-values.js';
import { isClientLockedOut } from '../../lib/contract-access.js';

/**
 * Client management (issue 11): the provider's clients (leads, companies, consultants), interested
 * clients from Sign Up, Add Customer, the profile and a consultant's assigned companies. Every read
 * goes through the caller's Scope (a consultant sees only assigned companies); every change runs in
 * one transaction with its activity log row. Design: docs/decisions/0007-client-management.md.
 */

/** The activity log row of a change of client `id` (or of a part of it: `what`) by the caller. */
const logClientChange = changeLog('clients', 'client', { clientRows: true });

/** The client's portal sign-in for its own operator (the automation's credentials). */
const credential = and(
  eq(portalCredentials.clientId, clients.id),
  eq(portalCredentials.operatorId, clients.operatorId),
);

const listColumns = {
  id: clients.id,
  type: clients.type,
  kind: clients.interestStatus,
  companyName: clients.companyName,
  businessId: clients.businessId,
  providerAccountId: clients.providerAccountId,
  email: clients.email,
  contactNumber: clients.contactNumber,
  adminName: clients.adminName,
  operatorName: operators.name,
  profileStatus: clients.profileStatus,
  leadStatus: clients.leadStatus,
  reminderDate: clients.reminderDate,
  invoiceUploadMethod: clients.invoiceUploadMethod,
  createdAt: clients.createdAt,
};

const SORT: Record<string, SQL> = {
  companyName: sql`lower(${clients.companyName})`,
  businessId: sql`${clients.businessId}`,
  email: sql`lower(${clients.email})`,
  profileStatus: sql`${clients.profileStatus}`,
  leadStatus: sql`${clients.leadStatus}`,
  reminderDate: sql`${clients.reminderDate}`,
  createdAt: sql`${clients.createdAt}`,
};

type ListRow = Omit<Client, 'createdAt' | 'updatedAt' | 'convertedAt'> & {
  createdAt: Date | string;
};

async function pageOf(
  db: Db,
  where: SQL | undefined,
  q: { page: number; pageSize: number; sort?: string; order: 'asc' | 'desc' },
): Promise<ClientList> {
  const dir = q.order === 'desc' ? desc : asc;
  const [rows, [{ n }]] = await Promise.all([
    db
      .select(listColumns)
      .from(clients)
      .leftJoin(operators, eq(operators.id, clients.operatorId))
      .where(where)
      .orderBy(dir(SORT[q.sort ?? 'companyName']), dir(clients.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(clients)
      .where(where),
  ]);
  return {
    items: (rows as unknown as ListRow[]).map((r) => ({ ...r, createdAt: iso(r.createdAt)! })),
    total: Number(n),
    page: q.page,
    pageSize: q.pageSize,
  };
}

const searchOf = (q: string | undefined) => {
  if (!q) return undefined;
  const p = containsPattern(q);
  return or(
    sql`${clients.companyName} ilike ${p} escape '\\'`,
    sql`${clients.businessId} ilike ${p} escape '\\'`,
    sql`${clients.email} ilike ${p} escape '\\'`,
  );
};

/** Client Management: the converted clients of a tab, searched, filtered, sorted and paged. */
export async function listClients(db: Db, scope: Scope, q: ClientListQuery): Promise<ClientList> {
  const where = and(
    scope.where({ clientId: clients.id }),
    q.tab === 'all' ? ne(clients.interestStatus, 'not_converted') : eq(clients.interestStatus, q.tab),
    searchOf(q.q),
    q.profileStatus ? eq(clients.profileStatus, q.profileStatus) : undefined,
    q.invoiceUploadMethod ? eq(clients.invoiceUploadMethod, q.invoiceUploadMethod) : undefined,
    q.leadStatus ? eq(clients.leadStatus, q.leadStatus) : undefined,
  );
  return pageOf(db, where, q);
}

/** Interested Clients: sign-ups not converted yet. */
export async function listInterested(db: Db, scope: Scope, q: InterestedListQuery): Promise<ClientList> {
  const where = and(
    scope.where({ clientId: clients.id }),
    eq(clients.interestStatus, 'not_converted'),
    searchOf(q.q),
  );
  return pageOf(db, where, q);
}

/** One client as the profile shows it; out of scope or unknown → 404. */
export async function getClient(db: Executor, scope: Scope | null, id: number): Promise<Client> {
  const [row] = await db
    .select({
      ...listColumns,
      address: clients.address,
      country: clients.country,
      operatorId: clients.operatorId,
      billingPlanId: clients.billingPlanId,
      portalUrl: portalCredentials.portalUrl,
      portalUsername: portalCredentials.username,
      hasPortalPassword: sql<boolean>`${portalCredentials.id} is not null`,
      convertedAt: clients.convertedAt,
      updatedAt: clients.updatedAt,
    })
    .from(clients)
    .leftJoin(operators, eq(operators.id, clients.operatorId))
    .leftJoin(portalCredentials, credential)
    .where(and(eq(clients.id, id), scope?.where({ clientId: clients.id })));
  if (!row) throw notFound();
  return {
    ...row,
    hasPortalPassword: Boolean(row.hasPortalPassword),
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
    convertedAt: iso(row.convertedAt),
  } as Client;
}

/**
 * Spec §8: client add/edit conflicts on business id, provider id, company name and email, in that
 * order (the unique indexes are the safety net for a concurrent write). On create the email must
 * also be free among users: it becomes the first user's login.
 */
async function checkConflicts(tx: Tx, input: ClientUpdate, selfId: number | null, newUser: boolean) {
  const notSelf = selfId == null ? undefined : ne(clients.id, selfId);
  const taken = async (cond: SQL) =>
    (await tx.select({ id: clients.id }).from(clients).where(and(cond, notSelf)).limit(1)).length > 0;
  if (await taken(eq(clients.businessId, input.businessId))) throw new AppError(409, 'businessIdInUse');
  if (
    input.providerAccountId &&
    (await taken(sql`lower(${clients.providerAccountId}) = lower(${input.providerAccountId})`))
  )
    throw new AppError(409, 'providerIdInUse');
  if (await taken(sql`lower(${clients.companyName}) = lower(${input.companyName})`))
    throw new AppError(409, 'companyNameInUse');
  if (await taken(sql`lower(${clients.email}) = lower(${input.email})`))
    throw new AppError(409, 'emailInUse');
  if (newUser) {
    const [u] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${input.email})`)
      .limit(1);
    if (u) throw new AppError(409, 'emailInUse');
  }
}

/** A unique violation that slipped past the checks (a concurrent write) → the same 409 answers. */
function mapConflict(err: unknown): never {
  return conflictAs(err, 'emailInUse', {
    clients_business_id_uq: 'businessIdInUse',
    clients_provider_account_id_uq: 'providerIdInUse',
    clients_company_name_uq: 'companyNameInUse',
    users_email_uq: 'emailInUse',
  });
}

/** Referenced rows must exist: the operator and the billing plan. */
async function checkRefs(tx: Tx, input: ClientUpdate) {
  const invalid: Record<string, string> = {};
  const refs = [
    ['operatorId', operators.id],
    ['billingPlanId', clientBillingPlans.id],
  ] as const;
  for (const [key, col] of refs) {
    const v = input[key];
    if (v == null) continue;
    const [hit] = await tx.select({ id: col }).from(col.table).where(eq(col, v));
    if (!hit) invalid[key] = 'invalid';
  }
  if (Object.keys(invalid).length) throw new AppError(400, 'validation', invalid);
}

/**
 * Spec §5: automation needs the operator portal's username and password. The password is sealed
 * (AES-256-GCM, lib/secrets.ts) into portal_credentials of the client's operator, as the automation
 * screens store it; without a new one the stored one is kept, and without either it is "required".
 */
async function saveAutomation(deps: Deps, tx: Tx, clientId: number, input: ClientUpdate) {
  if (input.invoiceUploadMethod !== 'automation') return;
  const operatorId = input.operatorId!;
  try {
    await checkOutboundUrl(input.portalUrl!);
  } catch (e) {
    if (!(e instanceof OutboundUrlError)) throw e;
    throw new AppError(400, 'portalUrlNotAllowed', { portalUrl: 'invalid' });
  }
  const now = deps.now();
  const set = { portalUrl: input.portalUrl!, username: input.portalUsername!, updatedAt: now };
  if (input.portalPassword) {
    const passwordSealed = encrypt(deps.encryptionKey, input.portalPassword);
    await tx
      .insert(portalCredentials)
      .values({ clientId, operatorId, ...set, passwordSealed })
      .onConflictDoUpdate({
        target: [portalCredentials.clientId, portalCredentials.operatorId],
        set: { ...set, passwordSealed },
      });
    return;
  }
  const kept = await tx
    .update(portalCredentials)
    .set(set)
    .where(and(eq(portalCredentials.clientId, clientId), eq(portalCredentials.operatorId, operatorId)))
    .returning({ id: portalCredentials.id });
  if (!kept.length) throw new AppError(400, 'portalCredentialsRequired', { portalPassword: 'required' });
}

const profileValues = (input: ClientUpdate, now: Date) => ({
  companyName: input.companyName,
  businessId: input.businessId,
  providerAccountId: input.providerAccountId,
  address: input.address,
  country: input.country,
  operatorId: input.operatorId,
  adminName: input.adminName,
  contactNumber: input.contactNumber,
  email: input.email,
  profileStatus: input.profileStatus,
  leadStatus: input.leadStatus,
  reminderDate: input.reminderDate,
  billingPlanId: input.billingPlanId,
  invoiceUploadMethod: input.invoiceUploadMethod,
  updatedAt: now,
});

/** The role of a new customer's first user. */
const roleOfKind = (kind: ClientKind) => (kind === 'consultant' ? ROLE.consultant : ROLE.companyAdmin);

/**
 * Add Customer: the client (converted as `kind`), its first user (the admin name and email, not yet
 * activated) and the activation mail, with which the user sets a password (the existing flow).
 * A consultant who adds a customer is assigned it (else they could not see what they added).
 */
export async function createClient(deps: Deps, caller: Caller, input: ClientCreate): Promise<Client> {
  const { db } = deps.database;
  const now = deps.now();
  let created: { client: Client; userId: number };
  try {
    created = await db.transaction(async (tx) => {
      await checkRefs(tx, input);
      await checkConflicts(tx, input, null, true);
      const [row] = await tx
        .insert(clients)
        .values({
          ...profileValues(input, now),
          type: input.kind === 'consultant' ? 'consultant' : 'company',
          interestStatus: input.kind,
          convertedAt: now,
        })
        .returning({ id: clients.id });
      const [user] = await tx
        .insert(users)
        .values({
          email: input.email,
          fullName: input.adminName,
          roleId: roleOfKind(input.kind),
          clientId: row.id,
          contactNumber: input.contactNumber,
          address: input.address,
          country: input.country,
          languageId: caller.user.languageId,
          activated: false,
        })
        .returning({ id: users.id });
      await saveAutomation(deps, tx, row.id, input);
      await caller.scope.assignToCaller(tx, row.id);
      const client = await getClient(tx, null, row.id);
      await logClientChange(tx, caller, row.id, 'create', null, client);
      return { client, userId: user.id };
    });
  } catch (err) {
    mapConflict(err);
  }
  await sendActivationMail(deps, created.userId);
  return created.client;
}

/** The profile (PUT: every field). */
export async function updateClient(
  deps: Deps,
  caller: Caller,
  id: number,
  input: ClientUpdate,
): Promise<Client> {
  const { db } = deps.database;
  try {
    return await db.transaction(async (tx) => {
      const before = await getClient(tx, caller.scope, id);
      await checkRefs(tx, input);
      await checkConflicts(tx, input, id, false);
      await tx.update(clients).set(profileValues(input, deps.now())).where(eq(clients.id, id));
      await saveAutomation(deps, tx, id, input);
      const after = await getClient(tx, null, id);
      await logClientChange(tx, caller, id, 'update', before, after);
      return after;
    });
  } catch (err) {
    mapConflict(err);
  }
}

/**
 * Interested Clients: convert a sign-up (or a lead) to a lead, company or consultant. The account
 * is activated (its users may log in with their sign-up password) and each is mailed. Converting
 * again to what it already is, or back to a lead, is refused.
 */
export async function convertClient(
  deps: Deps,
  caller: Caller,
  id: number,
  to: ClientKind,
): Promise<{ client: Client; code: MessageCode }> {
  const { db } = deps.database;
  const now = deps.now();
  const result = await db.transaction(async (tx) => {
    const before = await getClient(tx, caller.scope, id);
    const from = before.kind;
    if (from !== 'not_converted' && !(from === 'lead' && to !== 'lead')) {
      throw new AppError(409, 'alreadyConverted');
    }
    await tx
      .update(clients)
      .set({
        interestStatus: to,
        convertedAt: now,
        updatedAt: now,
        ...(to === 'consultant' ? { type: 'consultant' as const } : {}),
        ...(to === 'company' ? { type: 'company' as const } : {}),
      })
      .where(eq(clients.id, id));
    // The sign-up user becomes the company admin or a consultant of the converted client; with a
    // password (signed up) the account is active now, without one (added by the provider) the
    // activation mail lets them set it.
    const waiting = await tx
      .update(users)
      .set(
        to === 'lead'
          ? { activated: sql`${users.passwordHash} is not null` }
          : {
              activated: sql`${users.passwordHash} is not null`,
              roleId: roleOfKind(to),
            },
      )
      .where(and(eq(users.clientId, id), eq(users.activated, false)))
      .returning({
        id: users.id,
        email: users.email,
        fullName: users.fullName,
        languageId: users.languageId,
        activated: users.activated,
      });
    const after = await getClient(tx, null, id);
    await logClientChange(tx, caller, id, 'convert', before, after);
    // Converting makes no contract: without one in force the users meet the locked-out page, so
    // their mail says the account is ready and Kulu opens with the contract (issue 37 item 19).
    const lockedOut = await isClientLockedOut(tx, id, now);
    return { client: after, waiting, lockedOut };
  });
  const loginLink = `${deps.config.PUBLIC_URL.replace(/\/+$/, '')}/#/login`;
  for (const u of result.waiting) {
    if (!u.activated) {
      await sendActivationMail(deps, u.id);
      continue;
    }
    const templates = mailTemplates(u.languageId);
    await deps.mailer.send({
      to: u.email,
      ...(result.lockedOut
        ? templates.accountAwaitingContract({
            name: u.fullName,
            companyName: result.client.companyName,
            loginLink,
          })
        : templates.accountActivated({ name: u.fullName, loginLink })),
    });
  }
  return { client: result.client, code: CONVERTED_MESSAGE[to] };
}

// ---- assign companies ------------------------------------------------------------------------

/** A consultant-type client in the caller's scope, else 404 (unknown) or 409 (not a consultant). */
async function consultantClient(db: Executor, scope: Scope, id: number) {
  // Through `db` (the caller's transaction), not the Scope's own connection.
  const [c] = await db
    .select({ type: clients.type })
    .from(clients)
    .where(and(eq(clients.id, id), scope.where({ clientId: clients.id })));
  if (!c) throw notFound();
  if (c.type !== 'consultant') throw new AppError(409, 'notConsultant');
}

export async function assignedCompanies(db: Executor, scope: Scope, id: number): Promise<AssignedCompanies> {
  await consultantClient(db, scope, id);
  const companies = await db
    .select({ id: clients.id, name: clients.companyName, businessId: clients.businessId })
    .from(consultantCompanies)
    .innerJoin(clients, eq(clients.id, consultantCompanies.clientId))
    .where(eq(consultantCompanies.consultantClientId, id))
    .orderBy(sql`lower(${clients.companyName})`, clients.id);
  return { consultantClientId: id, companies };
}

/**
 * Replaces a consultant's assigned companies in one transaction. Each must be a company (not a lead,
 * an interested client or another consultant), else 400 with the field invalid.
 */
export async function setAssignedCompanies(
  deps: Deps,
  caller: Caller,
  id: number,
  clientIds: number[],
): Promise<AssignedCompanies> {
  const { db } = deps.database;
  const wanted = [...new Set(clientIds)];
  return db.transaction(async (tx) => {
    const before = await assignedCompanies(tx, caller.scope, id);
    if (wanted.length) {
      const found = await tx
        .select({ id: clients.id })
        .from(clients)
        .where(
          and(
            inArray(clients.id, wanted),
            eq(clients.type, 'company'),
            eq(clients.interestStatus, 'company'),
            caller.scope.where({ clientId: clients.id }),
          ),
        );
      if (found.length !== wanted.length) throw new AppError(400, 'validation', { clientIds: 'invalid' });
    }
    await tx.delete(consultantCompanies).where(eq(consultantCompanies.consultantClientId, id));
    if (wanted.length) {
      await tx
        .insert(consultantCompanies)
        .values(wanted.map((clientId) => ({ consultantClientId: id, clientId })));
    }
    const after = await assignedCompanies(tx, caller.scope, id);
    await logClientChange(tx, caller, id, 'assign', before.companies, after.companies, 'assignedCompanies');
    return after;
  });
}
