/**
 * The load benchmark's anchor (issue 13): a bare Fastify + `pg` server answering the same mix as
 * Kulu from the same database, with no framework of ours in between, so that Kulu's figures read as
 * a ratio to what the database and HTTP alone cost on this machine.
 *   GET /invoices     the caller's user row, 50 invoices with operator names, their count (the
 *                     issue's anchor: seven columns of each invoice)
 *   GET /invoices-full the same with the invoice columns and names Kulu's list answers with
 *                     (operator, client, sub-company): the same answer as Kulu's, read the same way
 *   GET /client-info  the caller's user row and its client
 * Env: DATABASE_URL, PORT, USER_EMAIL (the signed-in user whose rows it reads).
 */
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const email = process.env.USER_EMAIL;
const app = Fastify({ logger: false });

const user = async () =>
  (await pool.query('select id, email, full_name, role_id, client_id from users where email = $1', [email]))
    .rows[0] as { client_id: number };

/** The caller's newest 50 invoices as `select` reads them, and how many invoices it has. */
async function invoicePage(select: string) {
  const u = await user();
  const [items, count] = await Promise.all([
    pool.query(
      `${select} where i.client_id = $1 order by i.invoice_date desc nulls last, i.id desc limit 50`,
      [u.client_id],
    ),
    pool.query('select count(*)::int as n from invoices where client_id = $1', [u.client_id]),
  ]);
  return { items: items.rows, total: count.rows[0].n };
}

app.get('/invoices', () =>
  invoicePage(
    `select i.id, i.invoice_number, i.invoice_date, i.file_name, i.upload_state, i.parsing_status, o.name as operator_name
     from invoices i join operators o on o.id = i.operator_id`,
  ),
);

app.get('/invoices-full', () =>
  invoicePage(
    `select i.id, i.client_id, i.operator_id, i.sub_company_id, i.file_name, i.source, i.invoice_number,
       i.invoice_date, i.period_start, i.period_end, i.vat_rate, i.total_excl_vat, i.vat_amount,
       i.total_incl_vat, i.upload_state, i.parsing_status, i.error_code, i.error_message, i.created_at,
       i.parsed_at, i.line_count, i.subscription_count,
       o.name as operator_name, c.company_name as client_name, s.name as sub_company_name
     from invoices i left join operators o on o.id = i.operator_id join clients c on c.id = i.client_id
     left join sub_companies s on s.id = i.sub_company_id`,
  ),
);

app.get('/client-info', async () => {
  const u = await user();
  const client = await pool.query('select * from clients where id = $1', [u.client_id]);
  return { user: u, client: client.rows[0] };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('anchor listening');
