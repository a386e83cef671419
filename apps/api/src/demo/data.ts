import { eq, inArray } from 'drizzle-orm';
import { DEFAULT_CLIENT_USER_PERMISSIONS, ROLE, type AlertDigest } from '@kulu/shared';
import {
  clientContracts,
  clientOperators,
  clients,
  costCenters,
  operators,
  subCompanies,
  userSubCompanies,
  users,
} from '../db/schema/index.js';
import { hashPassword } from '../lib/passwords.js';
import type { Deps } from '../types.js';

/** The password of every demo login (README). */
export const DEMO_PASSWORD = 'Kulu!2026';

interface DemoClient {
  companyName: string;
  businessId: string;
  address: string;
  email: string;
  operators: string[];
  subCompanies: string[];
  costCenters: Array<[name: string, subCompanyIndex: number]>;
  /** `alertDigest`: the demo company admin's digest comes at once (decision 0026). */
  admin: { fullName: string; email: string; alertDigest?: AlertDigest };
  user: { fullName: string; email: string; subCompanyIndex: number };
}

export const DEMO_CLIENTS: DemoClient[] = [
  {
    companyName: 'Pohjola Rakennus Oy',
    businessId: '2345678-0',
    address: 'Mannerheimintie 12, 00100 Helsinki',
    email: 'talous@pohjolarakennus.fi',
    operators: ['Elisa', 'Telia'],
    subCompanies: ['Pohjola Rakennus Helsinki', 'Pohjola Rakennus Tampere'],
    // Named by a word that the operators print as the code (company.ts): Tampere runs the sites.
    costCenters: [
      ['Hallinto', 0],
      ['Työmaat', 1],
      ['Myynti', 0],
      ['Suunnittelu', 0],
      ['Hankinta', 0],
    ],
    admin: { fullName: 'Anna Virtanen', email: 'anna.virtanen@pohjolarakennus.fi', alertDigest: 'immediate' },
    user: { fullName: 'Mikko Korhonen', email: 'mikko.korhonen@pohjolarakennus.fi', subCompanyIndex: 1 },
  },
  {
    companyName: 'Saimaan Logistiikka Oy',
    businessId: '0737546-2',
    address: 'Kauppakatu 5, 53100 Lappeenranta',
    email: 'laskut@saimaanlogistiikka.fi',
    operators: ['DNA'],
    subCompanies: ['Saimaan Logistiikka Lappeenranta', 'Saimaan Kuljetus Oy'],
    // Named by the code its DNA invoices print (invoices.ts) and a word: the import finds them by the
    // code. The warehouse is in Lappeenranta, where the client user works; transport has its own firm.
    costCenters: [
      ['2001 Kuljetus', 1],
      ['4100 Varasto', 0],
      ['Hallinto', 0],
    ],
    admin: { fullName: 'Jussi Mäkinen', email: 'jussi.makinen@saimaanlogistiikka.fi' },
    user: { fullName: 'Sanna Laine', email: 'sanna.laine@saimaanlogistiikka.fi', subCompanyIndex: 0 },
  },
];

/**
 * The demo's contract of a client: active (activated now) from the start of last year to the end of
 * the year after next, so the client is never locked out while the demo runs.
 */
export const demoContract = (clientId: number, now: Date) => {
  const { start, end } = demoPeriod(now);
  return {
    clientId,
    status: 'active' as const,
    term: '36',
    startDate: start,
    endDate: end,
    activatedAt: now,
  };
};

/** The demo's contract period: the start of last year to the end of the year after next. */
const demoPeriod = (now: Date) => ({
  start: `${now.getUTCFullYear() - 1}-01-01`,
  end: `${now.getUTCFullYear() + 2}-12-31`,
});

export const DEMO_CONSULTANT = { fullName: 'Laura Nieminen', email: 'konsultti@kulu.fi' };

/**
 * A consultancy that is Kulu's customer (a client of type consultant, docs/decisions/0014) with a
 * user of its own. It manages both demo companies (consultant.ts) and is billed for them in
 * Consultant Billing on the demo's standard billing plan (seedDemoCatalogue).
 */
export const DEMO_CONSULTANT_FIRM = {
  companyName: 'Kaarna Mobiilineuvonta Oy',
  businessId: '3141593-8',
  address: 'Linnankatu 3, 20100 Turku',
  email: 'laskutus@kaarnaneuvonta.fi',
  user: { fullName: 'Ville Heikkinen', email: 'ville.heikkinen@kaarnaneuvonta.fi' },
};

/**
 * Two client companies with sub-companies, cost centers, contracts and users; the provider's own
 * consultant; a consultant firm with its contract and user.
 */
export async function loadDemoData(deps: Deps): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const today = deps.now();
  const { start, end } = demoPeriod(today);
  /** An activated user of the demo password: the person, their role and their client (none: the provider's). */
  const activeUser = <P extends { fullName: string; email: string }>(
    person: P,
    roleId: number,
    clientId?: number,
  ) => ({
    ...person,
    passwordHash,
    roleId,
    clientId,
    activated: true,
  });
  await deps.database.db.transaction(async (tx) => {
    await tx.insert(users).values(activeUser(DEMO_CONSULTANT, ROLE.consultant));
    for (const d of DEMO_CLIENTS) {
      const [client] = await tx
        .insert(clients)
        .values({
          type: 'company',
          companyName: d.companyName,
          businessId: d.businessId,
          address: d.address,
          country: 'Finland',
          email: d.email,
          interestStatus: 'company',
        })
        .returning();
      const subs = await tx
        .insert(subCompanies)
        .values(d.subCompanies.map((name) => ({ clientId: client.id, name })))
        .returning();
      await tx
        .insert(costCenters)
        .values(d.costCenters.map(([name, i]) => ({ clientId: client.id, subCompanyId: subs[i].id, name })));
      const ops = await tx.select().from(operators).where(inArray(operators.name, d.operators));
      await tx.insert(clientOperators).values(
        ops.map((o) => ({
          clientId: client.id,
          operatorId: o.id,
          salesContactName:
            o.name === 'DNA' ? 'Petri Salo' : o.name === 'Elisa' ? 'Heidi Lehtonen' : 'Tuomas Koskinen',
          uploadInvoiceReminder: true,
          contractStartDate: start,
          contractEndDate: end,
        })),
      );
      await tx.insert(clientContracts).values(demoContract(client.id, today));
      await tx.insert(users).values(activeUser(d.admin, ROLE.companyAdmin, client.id));
      const { fullName, email } = d.user;
      const [user] = await tx
        .insert(users)
        .values({
          ...activeUser({ fullName, email }, ROLE.clientUser, client.id),
          permissions: [...DEFAULT_CLIENT_USER_PERMISSIONS],
        })
        .returning();
      await tx
        .insert(userSubCompanies)
        .values({ userId: user.id, subCompanyId: subs[d.user.subCompanyIndex].id });
    }
    const firm = DEMO_CONSULTANT_FIRM;
    const [consultancy] = await tx
      .insert(clients)
      .values({
        type: 'consultant',
        companyName: firm.companyName,
        businessId: firm.businessId,
        address: firm.address,
        country: 'Finland',
        email: firm.email,
        interestStatus: 'consultant',
      })
      .returning();
    // Without a valid contract a consultant firm's users are locked out, as a company's.
    await tx.insert(clientContracts).values(demoContract(consultancy.id, today));
    await tx.insert(users).values(activeUser(firm.user, ROLE.consultant, consultancy.id));
  });
}

/** The demo companies as the database has them (none before the demo data is loaded). */
export const demoClientRows = (deps: Deps) =>
  deps.database.db
    .select({ id: clients.id, businessId: clients.businessId })
    .from(clients)
    .where(
      inArray(
        clients.businessId,
        DEMO_CLIENTS.map((c) => c.businessId),
      ),
    );

export async function demoUserId(deps: Deps, email: string): Promise<number> {
  const [u] = await deps.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return u.id;
}
