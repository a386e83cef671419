import { beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { helsinkiDay, message } from '@kulu/shared';
import {
  activityLog,
  clientOperatorDocuments,
  clientOperators,
  files,
  operators,
  settings,
  users,
} from '../../db/schema/index.js';
import { loggedFor, useClientWing } from '../../test/client-wing.js';
import { multipartFile } from '../../test/uploads.js';
import { storedPart, textPart, zipOf } from '../../test/bomb-xlsx.js';
import { DEMO } from '../../test/helpers.js';
import { DEMO_CONSULTANT_FIRM } from '../../demo/data.js';
import { sendOperatorContractReminders } from './operator-contract-reminders.js';
import { sniffDocument } from './document-type.js';

const wing = useClientWing();
/** An operator the client has a contract with (demo data), and one it has none with. */
let operatorId: number;
let freeOperatorId: number;

beforeAll(async () => {
  const list = (await get(base(), wing.admin)).json();
  operatorId = list.items[0].operatorId;
  freeOperatorId = list.available[0]?.id;
  if (freeOperatorId == null) {
    const [op] = await wing.t.deps.database.db
      .insert(operators)
      .values({ name: 'Testioperaattori' })
      .returning();
    freeOperatorId = op.id;
  }
}, 120_000);

const base = (id = wing.clientId) => `/api/clients/${id}/operator-contracts`;
const docsUrl = (id = wing.clientId, op = operatorId) => `${base(id)}/${op}/documents`;
const get = (url: string, token: string) => wing.t.inject({ method: 'GET', url, token });
const put = (url: string, token: string, payload: object) =>
  wing.t.inject({ method: 'PUT', url, token, payload });
const del = (url: string, token: string) => wing.t.inject({ method: 'DELETE', url, token });

const upload = (
  token: string,
  name: string | undefined,
  file: { name: string; data: Buffer },
  url = docsUrl(),
) =>
  wing.t.inject({ method: 'POST', url, token, ...multipartFile(name === undefined ? {} : { name }, file) });

/** A ZIP of text entries (enough for an Office Open XML package), deflated or stored. */
const zip = (entries: Record<string, string>, part = textPart): Buffer =>
  zipOf(Object.entries(entries).map(([name, text]) => ({ name, part: part(text) })));

const contentTypes = (main: string) =>
  `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="${main}"/></Types>`;
const DOCX_MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const docx = (part = textPart) =>
  zip({ '[Content_Types].xml': contentTypes(DOCX_MAIN), 'word/document.xml': '<w:document/>' }, part);
const ole2 = (stream: string) =>
  Buffer.concat([
    Buffer.from('d0cf11e0a1b11ae1', 'hex'),
    Buffer.alloc(504),
    Buffer.from(`Root Entry\0${stream}\0`, 'utf16le'),
  ]);
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

async function xlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Sopimus').addRow(['Operaattori', 'Hinta']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('document type by content', () => {
  it('tells pdf, doc, xls, docx, xlsx and csv by content, and refuses the rest', async () => {
    expect(sniffDocument(pdf)).toBe('pdf');
    expect(sniffDocument(ole2('WordDocument'))).toBe('doc');
    expect(sniffDocument(ole2('Workbook'))).toBe('xls');
    expect(sniffDocument(ole2('Something'))).toBeNull();
    expect(sniffDocument(docx())).toBe('docx');
    expect(sniffDocument(docx(storedPart))).toBe('docx'); // entries stored, not deflated
    expect(sniffDocument(await xlsx())).toBe('xlsx');
    expect(sniffDocument(Buffer.from('nimi;summa\nDNA;12,50\n'))).toBe('csv');
    // Macro-enabled Word (another main content type), a ZIP without [Content_Types].xml.
    expect(
      sniffDocument(
        zip({
          '[Content_Types].xml': contentTypes('application/vnd.ms-word.document.macroEnabled.main+xml'),
          'word/document.xml': 'x',
        }),
      ),
    ).toBeNull();
    expect(sniffDocument(zip({ 'word/document.xml': 'x' }))).toBeNull();
    expect(sniffDocument(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBeNull();
    expect(sniffDocument(Buffer.from('a;b\0c'))).toBeNull();
    expect(sniffDocument(Buffer.from([0x61, 0xff, 0xfe, 0x62]))).toBeNull();
    expect(sniffDocument(Buffer.alloc(0))).toBeNull();
  });
});

describe('operator contract details', () => {
  it("lists the client's operator contracts for the provider and the company itself", async () => {
    const res = await get(base(), wing.admin);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.items.length).toBeGreaterThan(0);
    expect(body.items[0]).toMatchObject({ clientId: wing.clientId, operatorId, documentCount: 0 });
    expect(body.available.map((o: { id: number }) => o.id)).not.toContain(operatorId);
    expect((await get(base(), wing.consultant)).statusCode).toBe(200);
    expect((await get(base(), wing.companyAdmin)).statusCode).toBe(200);
    expect((await get(`${base()}/${operatorId}`, wing.companyAdmin)).json().operatorId).toBe(operatorId);
  });

  it("answers 404 for another client's ids, and a company reaches only its own", async () => {
    expect((await get(base(wing.otherClientId), wing.companyAdmin)).statusCode).toBe(404);
    expect((await get(`${base(wing.otherClientId)}/${operatorId}`, wing.companyAdmin)).statusCode).toBe(404);
    expect((await get(base(wing.clientId), wing.otherCompanyAdmin)).statusCode).toBe(404);
    const body = { salesContactName: 'Vieras', uploadInvoiceReminder: false };
    expect((await put(`${base(wing.otherClientId)}/${operatorId}`, wing.companyAdmin, body)).statusCode).toBe(
      404,
    );
    // Another client answers 404 whatever the body or the rest of the path, as on every route with
    // a client in its path (the access plugin checks it first); malformed input of one's own client
    // answers 400.
    const bad = await put(`${base(wing.otherClientId)}/${operatorId}`, wing.companyAdmin, {
      contractStartDate: 'x',
    });
    expect(bad.statusCode).toBe(404);
    expect((await get(`${base(wing.otherClientId)}/abc`, wing.companyAdmin)).statusCode).toBe(404);
    const own = await put(`${base(wing.clientId)}/${operatorId}`, wing.companyAdmin, {
      contractStartDate: 'x',
    });
    expect(own.statusCode).toBe(400);
    expect(own.json().fields).toMatchObject({ contractStartDate: 'invalid' });
    expect((await get(`${base(wing.clientId)}/abc`, wing.companyAdmin)).statusCode).toBe(400);
    expect((await get(`${base()}/999999`, wing.admin)).statusCode).toBe(404);
    expect((await get(base(999999), wing.admin)).statusCode).toBe(404);
  });

  it('refuses a client user without the permission (403), and lets one with it see only its own', async () => {
    expect((await get(base(), wing.clientUser)).statusCode).toBe(403);
    const { db } = wing.t.deps.database;
    const [u] = await db.select().from(users).where(eq(users.email, DEMO.clientUser));
    await db
      .update(users)
      .set({ permissions: [...(u.permissions ?? []), 'general', 'clientMasters.operatorContracts'] })
      .where(eq(users.id, u.id));
    try {
      expect((await get(base(), wing.clientUser)).statusCode).toBe(200);
      expect((await get(base(wing.otherClientId), wing.clientUser)).statusCode).toBe(404);
    } finally {
      await db.update(users).set({ permissions: u.permissions }).where(eq(users.id, u.id));
    }
    expect((await get(base(), wing.clientUser)).statusCode).toBe(403);
  });

  it('saves the details with the spec message and logs the change', async () => {
    const res = await put(`${base()}/${operatorId}`, wing.companyAdmin, {
      salesContactName: '  Petri Salo ',
      uploadInvoiceReminder: true,
      contractStartDate: '2031-01-01',
      contractEndDate: '2033-12-31',
      contractEndReminder: '2033-10-01',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      code: 'operatorContractSaved',
      message: message('operatorContractSaved', 'en'),
      contract: {
        operatorId,
        salesContactName: 'Petri Salo',
        uploadInvoiceReminder: true,
        contractStartDate: '2031-01-01',
        contractEndDate: '2033-12-31',
        contractEndReminder: '2033-10-01',
      },
    });
    const logged = await wing.t.deps.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.area, 'operatorContracts'), eq(activityLog.entity, 'operatorContract')));
    expect(logged.some((l) => l.action === 'update' && l.clientId === wing.clientId)).toBe(true);
  });

  it('keeps the end date reminder after the start and before the end (spec message)', async () => {
    const url = `${base()}/${operatorId}`;
    const dates = { contractStartDate: '2031-01-01', contractEndDate: '2031-12-31' };
    for (const contractEndReminder of ['2031-01-01', '2031-12-31', '2030-12-31', '2032-01-01']) {
      const res = await put(url, wing.admin, { ...dates, contractEndReminder });
      expect(res.statusCode, contractEndReminder).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'operatorContractReminderDate',
        message: message('operatorContractReminderDate', 'en'),
        fields: { contractEndReminder: 'invalid' },
      });
    }
    // A reminder needs both dates.
    const noEnd = await put(url, wing.admin, {
      contractStartDate: '2031-01-01',
      contractEndReminder: '2031-06-01',
    });
    expect(noEnd.json().code).toBe('operatorContractReminderDate');
    // The end not before the start.
    const backwards = await put(url, wing.admin, {
      contractStartDate: '2031-05-01',
      contractEndDate: '2031-04-30',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fields).toMatchObject({ contractEndDate: 'invalid' });
    const ok = await put(url, wing.admin, { ...dates, contractEndReminder: '2031-01-02' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("answers in the caller's language", async () => {
    const { db } = wing.t.deps.database;
    await db.update(users).set({ languageId: 2 }).where(eq(users.email, DEMO.companyAdmin));
    try {
      const res = await put(`${base()}/${operatorId}`, wing.companyAdmin, {
        contractStartDate: '2031-01-01',
        contractEndDate: '2031-12-31',
        contractEndReminder: '2031-12-31',
      });
      expect(res.json().message).toBe(message('operatorContractReminderDate', 'fi'));
    } finally {
      await db.update(users).set({ languageId: 1 }).where(eq(users.email, DEMO.companyAdmin));
    }
  });

  it('adds a contract with an operator the client has none with', async () => {
    const res = await put(`${base()}/${freeOperatorId}`, wing.admin, { salesContactName: 'Uusi Myyjä' });
    expect(res.statusCode, res.body).toBe(200);
    const list = (await get(base(), wing.admin)).json();
    expect(list.items.map((i: { operatorId: number }) => i.operatorId)).toContain(freeOperatorId);
    expect(list.available.map((o: { id: number }) => o.id)).not.toContain(freeOperatorId);
    // (a body naming a field: one naming none is refused first, as empty)
    expect((await put(`${base()}/999999`, wing.admin, { uploadInvoiceReminder: false })).statusCode).toBe(
      404,
    );
  });

  it('refuses an unknown field and keeps the contract as it was (issue 23, finding 9)', async () => {
    const before = (await get(base(), wing.admin))
      .json()
      .items.find((i: { operatorId: number }) => i.operatorId === freeOperatorId);
    const res = await put(`${base()}/${freeOperatorId}`, wing.admin, { salesContact: 'Väärä kenttä' });
    expect(res.statusCode).toBe(400);
    const after = (await get(base(), wing.admin))
      .json()
      .items.find((i: { operatorId: number }) => i.operatorId === freeOperatorId);
    expect(after).toEqual(before);
  });
});

describe('operator contract documents', () => {
  let pdfId: number;

  it('uploads a PDF with the spec message, lists it and downloads the same bytes', async () => {
    const res = await upload(wing.companyAdmin, 'Sopimus 2031', { name: 'sopimus.pdf', data: pdf });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'documentUploaded',
      message: message('documentUploaded', 'en'),
      document: { name: 'Sopimus 2031', type: 'pdf', size: pdf.length },
    });
    pdfId = res.json().document.id;
    const list = await get(docsUrl(), wing.admin);
    expect(list.json().items).toEqual([
      expect.objectContaining({ id: pdfId, name: 'Sopimus 2031', uploadedBy: expect.any(String) }),
    ]);
    const dl = await get(`${docsUrl()}/${pdfId}`, wing.companyAdmin);
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(pdf)).toBe(true);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="Sopimus 2031\.pdf"/);
    expect(dl.headers['x-content-type-options']).toBe('nosniff');
    expect(
      (await get(base(), wing.admin))
        .json()
        .items.find((i: { operatorId: number }) => i.operatorId === operatorId).documentCount,
    ).toBe(1);
  });

  it('refuses the same name again, whatever its case (409, spec message)', async () => {
    const res = await upload(wing.admin, 'sopimus 2031', { name: 'toinen.csv', data: Buffer.from('a;b\n') });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'documentNameExists',
      message: message('documentNameExists', 'en'),
    });
  });

  it('allows the same name under another operator contract', async () => {
    const res = await upload(
      wing.admin,
      'Sopimus 2031',
      { name: 's.pdf', data: pdf },
      docsUrl(wing.clientId, freeOperatorId),
    );
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses a name with symbols (alphanumeric and spaces only)', async () => {
    for (const name of ['Sopimus-2031', 'sopimus.pdf', 'a_b', 'a  b', '', '../etc', 'x'.repeat(101)]) {
      const res = await upload(wing.admin, name, { name: 'x.pdf', data: pdf });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().code, name).toBe('documentNameInvalid');
    }
    const finnish = await upload(wing.admin, 'Liite Äö 2', { name: 'x.pdf', data: pdf });
    expect(finnish.statusCode, finnish.body).toBe(201);
  });

  it('takes the name from the file when none is given', async () => {
    const res = await upload(wing.admin, undefined, {
      name: 'Hinnasto2031.csv',
      data: Buffer.from('nimi;hinta\n'),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().document).toMatchObject({ name: 'Hinnasto2031', type: 'csv' });
  });

  it('tells the type by content: text named .pdf is refused, a real xlsx is accepted', async () => {
    const fake = await upload(wing.admin, 'Vale', { name: 'vale.pdf', data: Buffer.from('just some text') });
    expect(fake.statusCode).toBe(400);
    expect(fake.json()).toMatchObject({ code: 'documentType', message: message('documentType', 'en') });
    const book = await xlsx();
    const res = await upload(wing.admin, 'Laskelma', { name: 'laskelma.xlsx', data: book });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().document.type).toBe('xlsx');
    const dl = await get(`${docsUrl()}/${res.json().document.id}`, wing.admin);
    expect(dl.rawPayload.equals(book)).toBe(true);
    expect(dl.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
  });

  it('accepts doc, xls, docx and csv by content, and refuses other files or a wrong extension', async () => {
    const ok: Array<[string, Buffer, string]> = [
      ['Muistio', ole2('WordDocument'), 'muistio.doc'],
      ['Taulukko', ole2('Workbook'), 'taulukko.xls'],
      ['Kirje', docx(), 'kirje.docx'],
      ['Lista', Buffer.from('a;b\nc;d\n'), 'lista.csv'],
    ];
    for (const [name, data, file] of ok) {
      const res = await upload(wing.admin, name, { name: file, data });
      expect(res.statusCode, `${file}: ${res.body}`).toBe(201);
      expect(res.json().document.type).toBe(file.split('.')[1]);
    }
    const bad: Array<[Buffer, string]> = [
      [ole2('WordDocument'), 'muistio2.xls'], // a doc named .xls
      [docx(), 'kirje2.xlsx'],
      [Buffer.from('a;b\0c'), 'nul.csv'],
      [Buffer.from([0x61, 0xff, 0xfe]), 'binary.csv'],
      [Buffer.from('#!/bin/sh\necho hi\n'), 'script.sh'],
      [Buffer.from('%PDF-1.4'), 'no-extension'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'kuva.png'],
    ];
    for (const [data, file] of bad) {
      const res = await upload(wing.admin, 'Huono', { name: file, data });
      expect(res.statusCode, file).toBe(400);
      expect(res.json().code, file).toBe('documentType');
    }
  });

  it('refuses a file over 10 MB and an upload without a file', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(10 * 1024 * 1024, 0x20)]);
    const res = await upload(wing.admin, 'Iso', { name: 'iso.pdf', data: big });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'documentTooLarge',
      message: message('documentTooLarge', 'en'),
    });
    const none = await wing.t.inject({
      method: 'POST',
      url: docsUrl(),
      token: wing.admin,
      ...multipartFile({ name: 'Tyhjä' }),
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().fields).toMatchObject({ file: 'required' });
  });

  it("keeps documents to their client: other clients' ids answer 404", async () => {
    const other = await upload(
      wing.otherCompanyAdmin,
      'Oma',
      { name: 'oma.pdf', data: pdf },
      docsUrl(wing.clientId),
    );
    expect(other.statusCode).toBe(404);
    expect((await get(docsUrl(), wing.otherCompanyAdmin)).statusCode).toBe(404);
    expect((await get(`${docsUrl()}/${pdfId}`, wing.otherCompanyAdmin)).statusCode).toBe(404);
    expect((await del(`${docsUrl()}/${pdfId}`, wing.otherCompanyAdmin)).statusCode).toBe(404);
    // The other client's path with this client's document: not under that contract.
    const [op] = await wing.t.deps.database.db
      .select({ operatorId: clientOperators.operatorId })
      .from(clientOperators)
      .where(eq(clientOperators.clientId, wing.otherClientId));
    expect((await get(`${docsUrl(wing.otherClientId, op.operatorId)}/${pdfId}`, wing.admin)).statusCode).toBe(
      404,
    );
    // Under another operator contract of the same client: 404 too.
    expect((await get(`${docsUrl(wing.clientId, freeOperatorId)}/${pdfId}`, wing.admin)).statusCode).toBe(
      404,
    );
    expect((await get(`${docsUrl()}/${pdfId}`, wing.clientUser)).statusCode).toBe(403);
  });

  it('deletes a document and its file with the spec message', async () => {
    const { db } = wing.t.deps.database;
    const [row] = await db
      .select()
      .from(clientOperatorDocuments)
      .where(eq(clientOperatorDocuments.id, pdfId));
    const res = await del(`${docsUrl()}/${pdfId}`, wing.companyAdmin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ code: 'documentDeleted', message: message('documentDeleted', 'en') });
    expect((await get(`${docsUrl()}/${pdfId}`, wing.admin)).statusCode).toBe(404);
    expect((await del(`${docsUrl()}/${pdfId}`, wing.admin)).statusCode).toBe(404);
    expect(await db.select().from(files).where(eq(files.id, row.fileId))).toEqual([]);
    // The name is free again.
    expect((await upload(wing.admin, 'Sopimus 2031', { name: 'uusi.pdf', data: pdf })).statusCode).toBe(201);
    const logged = await loggedFor(wing.t, 'operatorDocument', pdfId);
    expect(logged.map((l) => l.action).sort()).toEqual(['delete', 'upload']);
  });
});

describe('end date reminder job', () => {
  const sentTo = () => {
    const spy = vi.spyOn(wing.t.deps.jobs, 'send').mockResolvedValue(null);
    return {
      spy,
      recipients: () => spy.mock.calls.map((c) => (c[1] as { to: string }).to),
      restore: () => spy.mockRestore(),
    };
  };

  it("mails the client's admin, the provider and the client's consultants on the reminder day, once", async () => {
    const set = await put(`${base()}/${operatorId}`, wing.admin, {
      contractStartDate: '2031-01-01',
      contractEndDate: '2031-12-31',
      contractEndReminder: '2031-09-30',
    });
    expect(set.statusCode, set.body).toBe(200);
    const mail = sentTo();
    try {
      expect(await sendOperatorContractReminders(wing.t.deps, '2031-09-29')).toBe(0);
      const sent = await sendOperatorContractReminders(wing.t.deps, '2031-09-30');
      expect(sent).toBeGreaterThanOrEqual(2);
      // The demo consultant is assigned this company personally; the consultant firm's user through
      // the firm (consultant_companies): both ways of lib/scope.ts consultantIdsOfClient.
      expect(mail.recipients()).toEqual(
        expect.arrayContaining([
          DEMO.companyAdmin,
          DEMO.admin,
          DEMO.consultant,
          DEMO_CONSULTANT_FIRM.user.email,
        ]),
      );
      expect(mail.recipients()).not.toContain(DEMO.clientUser);
      expect(mail.recipients()).not.toContain(DEMO.otherCompanyAdmin);
      const first = mail.spy.mock.calls.find((c) => (c[1] as { to: string }).to === DEMO.companyAdmin)!;
      expect(first[0]).toBe('send-mail');
      expect((first[1] as { subject: string }).subject).toContain('Pohjola');
      expect((first[1] as { text: string }).text).toContain('2031-12-31');
      // Not twice.
      expect(await sendOperatorContractReminders(wing.t.deps, '2031-09-30')).toBe(0);
      expect(mail.spy.mock.calls.length).toBe(sent);
    } finally {
      mail.restore();
    }
    const [co] = await wing.t.deps.database.db
      .select({ id: clientOperators.id })
      .from(clientOperators)
      .where(and(eq(clientOperators.clientId, wing.clientId), eq(clientOperators.operatorId, operatorId)));
    const [mark] = await wing.t.deps.database.db
      .select()
      .from(settings)
      .where(eq(settings.key, `operator-contract-reminder:${co.id}:2031-09-30`));
    expect(mark).toBeDefined();
  });

  it("takes the day from the app's clock (the daily schedule passes none)", async () => {
    const day = helsinkiDay(new Date(wing.t.deps.now().getTime() + 40 * 86_400_000));
    const { db } = wing.t.deps.database;
    await db
      .update(clientOperators)
      .set({ contractStartDate: '2000-01-01', contractEndDate: '2099-12-31', contractEndReminder: day })
      .where(
        and(eq(clientOperators.clientId, wing.clientId), eq(clientOperators.operatorId, freeOperatorId)),
      );
    const mail = sentTo();
    try {
      expect(await sendOperatorContractReminders(wing.t.deps)).toBe(0);
      wing.t.advanceClock(40 * 86_400_000);
      const sent = await sendOperatorContractReminders(wing.t.deps);
      expect(sent).toBeGreaterThanOrEqual(2);
      expect(await sendOperatorContractReminders(wing.t.deps)).toBe(0);
    } finally {
      mail.restore();
      wing.t.advanceClock(-40 * 86_400_000);
    }
  });
});
