import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { parseFinvoice, type ParsedInvoice } from '@kulu/invoices';
import { generateFinvoice, type FinvoiceOptions } from '@kulu/invoices/generator';
import { files, invoices, operators, subCompanies, users } from '../db/schema/index.js';
import { importParsedInvoice } from '../modules/invoices/import.service.js';
import type { Db } from '../db/client.js';
import { BUYER, DEMO } from './helpers.js';

/** The demo company admin (their user id) and their client, Pohjola: the client the benches load. */
export async function benchClient(db: Db): Promise<{ userId: number; clientId: number }> {
  const [u] = await db
    .select({ id: users.id, clientId: users.clientId })
    .from(users)
    .where(eq(users.email, DEMO.companyAdmin));
  return { userId: u!.id, clientId: u!.clientId! };
}

/**
 * Pohjola's Elisa e-invoice of January 2031 with `subscriptions` subscriptions on cost centers,
 * parsed (`more`: other generator options), and where the import benches write it: Pohjola and its
 * first sub-company.
 */
export async function benchFinvoice(
  db: Db,
  opts: { seed: number; subscriptions: number } & Partial<FinvoiceOptions>,
): Promise<{ parsed: ParsedInvoice; target: { clientId: number; subCompanyId: number } }> {
  const { clientId } = await benchClient(db);
  const [sub] = await db
    .select({ id: subCompanies.id })
    .from(subCompanies)
    .where(eq(subCompanies.clientId, clientId))
    .limit(1);
  const { xml } = generateFinvoice({
    operator: 'elisa',
    costCenters: true,
    invoiceDate: '2031-01-05',
    buyer: BUYER.pohjola,
    ...opts,
  });
  return { parsed: parseFinvoice(xml), target: { clientId, subCompanyId: sub!.id } };
}

/**
 * A large client for the benchmarks (dashboard, export): `subs` subscriptions over 40 cost centers,
 * `months` invoices ending in December 2029, and a fact per subscription, month and cost element
 * (8 elements, one per usage kind of category), written with SQL as the import writes them. Returns
 * the number of facts of the client.
 */
export async function seedBenchFacts(
  db: Db,
  clientId: number,
  SUBS: number,
  MONTHS: number,
): Promise<number> {
  const [op] = await db
    .select()
    .from(operators)
    .where(sql`lower(${operators.name}) = 'elisa'`);
  if (!op) throw new Error('bench data: no Elisa operator');
  await db.execute(sql`
    insert into files (client_id, kind, name, mime, size, data)
    values (${clientId}, 'invoice', 'bench.pdf', 'application/pdf', 1, '\\x00'::bytea)`);
  await db.execute(sql`
    insert into cost_centers (client_id, sub_company_id, name)
    select ${clientId}, (select id from sub_companies where client_id = ${clientId} order by id
             offset (g % (select count(*) from sub_companies where client_id = ${clientId})) limit 1),
           'BENCH-' || g
    from generate_series(1, 40) g`);
  await db.execute(sql`
    insert into invoices (client_id, operator_id, file_id, file_name, file_sha256, batch_id, invoice_number,
                          invoice_date, period_start, period_end, upload_state, parsing_status)
    select ${clientId}, ${op.id}, (select max(id) from files), 'bench-' || m || '.pdf', md5('bench' || m), 'bench',
           'BENCH-' || m, d::date, d::date, (d + interval '1 month - 1 day')::date, 'uploaded', 'completed'
    from generate_series(1, ${MONTHS}) m, lateral (select date '2030-01-01' - (m || ' month')::interval as d) x`);
  await db.execute(sql`
    insert into subscriptions (client_id, phone_number, user_name, operator_id, sub_company_id, cost_center_id,
                               first_seen_month, last_seen_month)
    select ${clientId}, '+35850' || lpad(g::text, 7, '0'), 'Bench User ' || g, ${op.id}, c.sub_company_id, c.id,
           date '2027-01-01', date '2029-12-01'
    from generate_series(1, ${SUBS}) g
    join (select id, sub_company_id, row_number() over (order by id) - 1 as n
          from cost_centers where name like 'BENCH-%') c on c.n = g % 40`);
  // Cost elements are made by the import; the bench makes 8, one per usage kind of category.
  await db.execute(sql`
    insert into cost_elements (name, operator_id, cost_category_id, status)
    select 'Bench element ' || g, ${op.id}, (select id from cost_categories order by id offset g - 1 limit 1),
           'approved'
    from generate_series(1, 8) g
    on conflict do nothing`);
  await db.execute(sql`
    insert into monthly_facts (client_id, invoice_id, operator_id, subscription_id, sub_company_id, cost_center_id,
                               month, cost_element_id, cost_category_id, amount, quantity, unit)
    select s.client_id, i.id, i.operator_id, s.id, s.sub_company_id, s.cost_center_id, i.period_start,
           e.id, e.cost_category_id, round((random() * 30)::numeric, 2),
           case when e.n % 3 = 0 then null else round((random() * 500)::numeric, 2) end,
           case e.n % 3 when 1 then 'min' when 2 then 'mb' end
    from subscriptions s
    join invoices i on i.client_id = s.client_id and i.batch_id = 'bench'
    cross join (select id, cost_category_id, row_number() over (order by id) as n
                from cost_elements where operator_id = ${op.id} and name like 'Bench element %' order by id) e
    where s.client_id = ${clientId} and s.phone_number like '+35850%' and s.user_name like 'Bench User%'`);
  // As autovacuum leaves a table after a bulk load: statistics, and the visibility map that index-only scans need.
  await db.execute(sql`vacuum analyze`);
  const { rows } = (await db.execute(
    sql`select count(*)::int as n from monthly_facts where client_id = ${clientId}`,
  )) as unknown as { rows: Array<{ n: number }> };
  return rows[0]!.n;
}

/**
 * Benchmarks that need PostgreSQL (TEST_DATABASE_URL): says so and ends the process when there is
 * none to reach, so `npm run bench` goes on with its other sections.
 */
export async function requirePostgres(bench: string): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  const client = url ? new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 }) : null;
  const reachable =
    !!client &&
    (await client.connect().then(
      () => client.end().then(() => true),
      () => false,
    ));
  if (!reachable) {
    console.log(
      `${bench} bench skipped: no PostgreSQL at ${url ?? '(TEST_DATABASE_URL not set)'}; it needs one (user postgres, database test).`,
    );
    process.exit(0);
  }
}

/**
 * A parsed invoice imported in process as an upload would (its file and invoice row first, then the
 * one import transaction); `name` makes the file and batch unique. Returns the invoice id and the
 * import's time in ms.
 */
export async function importBenchInvoice(
  db: Db,
  target: { clientId: number; subCompanyId: number | null; name: string },
  parsed: ParsedInvoice,
): Promise<{ id: number; ms: number }> {
  const { clientId, subCompanyId, name } = target;
  const [file] = await db
    .insert(files)
    .values({ clientId, kind: 'invoice', name, mime: 'application/xml', size: 1, data: Buffer.from('x') })
    .returning();
  const [head] = await db
    .insert(invoices)
    .values({
      clientId,
      subCompanyId,
      fileId: file.id,
      fileName: name,
      fileSha256: `bench-${name}`,
      batchId: `bench-${name}`,
      format: 'finvoice',
    })
    .returning();
  const t0 = performance.now();
  const done = await importParsedInvoice(db, head.id, parsed, new Date());
  const ms = performance.now() - t0;
  if (!done.imported) throw new Error(`${name}: not imported`);
  return { id: head.id, ms };
}

/** Imports invoices one after another into `target`, as files named `<prefix>1.xml`, `<prefix>2.xml`, …. */
export function benchImporter(db: Db, target: { clientId: number; subCompanyId: number }, prefix: string) {
  let n = 0;
  return (parsed: ParsedInvoice) =>
    importBenchInvoice(db, { ...target, name: `${prefix}${++n}.xml` }, parsed);
}
