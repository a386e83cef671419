import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { LANGUAGE, ROLE } from '@kulu/shared';
import { files } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { multipartFile } from '../../test/uploads.js';
import { clientWing } from '../../test/client-wing.js';
import { sniffHelpFile } from './help.service.js';

let t: TestApp;
let admin: string;
let companyAdmin: string;
let clientUser: string;
let consultant: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, companyAdmin, clientUser, consultant } = await clientWing(t));
});
afterAll(async () => {
  await t?.close();
});

const PAGE = '/company/dashboard/costAndUsage';
const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);

const upload = (
  fields: Record<string, string | number>,
  file?: { name: string; data: Buffer },
  token = admin,
) => t.inject({ method: 'POST', url: '/api/masters/help', token, ...multipartFile(fields, file) });

describe('help files', () => {
  it('uploads a PDF per role, page and language', async () => {
    const fi = await upload(
      { roleId: ROLE.companyAdmin, page: PAGE, languageId: LANGUAGE.fi },
      { name: 'ohje.pdf', data: pdf('suomeksi') },
    );
    expect(fi.statusCode, fi.body).toBe(201);
    expect(fi.json()).toMatchObject({
      roleId: 3,
      page: PAGE,
      languageId: 2,
      fileName: 'ohje.pdf',
      mime: 'application/pdf',
    });
    const en = await upload(
      { roleId: ROLE.companyAdmin, page: PAGE, languageId: LANGUAGE.en },
      { name: '../../etc/guide.PDF', data: pdf('in English') },
    );
    expect(en.statusCode).toBe(201);
    expect(en.json().fileName).toBe('guide.pdf');
    const list = (
      await t.inject({
        method: 'GET',
        url: `/api/masters/help?q=${encodeURIComponent('/company')}`,
        token: admin,
      })
    ).json();
    expect(list.total).toBe(2);
  });

  it('checks the type by content, not by name', async () => {
    const fake = await upload(
      { roleId: ROLE.companyAdmin, page: PAGE, languageId: LANGUAGE.fi },
      { name: 'ohje.pdf', data: Buffer.from('<html>not a pdf</html>') },
    );
    expect(fake.statusCode).toBe(400);
    expect(fake.json().code).toBe('helpFileType');
    expect(sniffHelpFile(Buffer.from('d0cf11e0a1b11ae1000000', 'hex'))?.ext).toBe('doc');
    expect(
      sniffHelpFile(Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.from('....word/document.xml')]))
        ?.ext,
    ).toBe('docx');
    expect(
      sniffHelpFile(Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.from('xl/workbook.xml')])),
    ).toBeNull();
  });

  it('answers required and invalid fields', async () => {
    const none = await upload({});
    expect(none.statusCode).toBe(400);
    expect(none.json().fields).toEqual({
      roleId: 'required',
      page: 'required',
      languageId: 'required',
      file: 'required',
    });
    const bad = await upload(
      { roleId: 9, page: 'no slash', languageId: 3 },
      { name: 'a.pdf', data: pdf('x') },
    );
    expect(bad.json().fields).toEqual({ roleId: 'invalid', page: 'invalid', languageId: 'invalid' });
    const json = await t.inject({ method: 'POST', url: '/api/masters/help', token: admin, payload: {} });
    expect(json.statusCode).toBe(400);
  });

  it('gives a user the help of their page in their language, else in English', async () => {
    const get = (token: string) =>
      t.inject({ method: 'GET', url: `/api/help?page=${encodeURIComponent(PAGE)}`, token });
    const en = await get(companyAdmin);
    expect(en.statusCode).toBe(200);
    expect(en.json()).toMatchObject({ languageId: 1, fileName: 'guide.pdf' });
    await t.inject({
      method: 'PUT',
      url: '/api/profile/settings',
      token: companyAdmin,
      payload: { languageID: 2 },
    });
    const fi = await get(companyAdmin);
    expect(fi.json()).toMatchObject({ languageId: 2, fileName: 'ohje.pdf' });
    const file = await t.inject({ method: 'GET', url: fi.json().url, token: companyAdmin });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.body).toContain('suomeksi');
    // Another role has no help for this page, and cannot read this role's file by its id.
    expect((await get(clientUser)).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: fi.json().url, token: clientUser })).statusCode).toBe(404);
    expect(
      (await t.inject({ method: 'GET', url: '/api/help?page=nope', token: clientUser })).statusCode,
    ).toBe(400);
  });

  it('replaces the file on a new upload and removes it on delete', async () => {
    const { db } = t.deps.database;
    const [{ n: before }] = await db.select({ n: count() }).from(files).where(eq(files.kind, 'help'));
    const again = await upload(
      { roleId: ROLE.companyAdmin, page: PAGE, languageId: LANGUAGE.fi },
      { name: 'ohje-2.pdf', data: pdf('uusi') },
    );
    expect(again.statusCode).toBe(201);
    const [{ n: after }] = await db.select({ n: count() }).from(files).where(eq(files.kind, 'help'));
    expect(after).toBe(before);
    const download = await t.inject({
      method: 'GET',
      url: `/api/masters/help/${again.json().id}/file`,
      token: admin,
    });
    expect(download.body).toContain('uusi');
    const del = await t.inject({
      method: 'DELETE',
      url: `/api/masters/help/${again.json().id}`,
      token: admin,
    });
    expect(del.statusCode).toBe(200);
    const [{ n: left }] = await db.select({ n: count() }).from(files).where(eq(files.kind, 'help'));
    expect(left).toBe(before - 1);
  });

  it('keeps the consultant out of the help master', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/masters/help', token: consultant })).statusCode).toBe(
      403,
    );
    const res = await upload(
      { roleId: 1, page: PAGE, languageId: 1 },
      { name: 'a.pdf', data: pdf('x') },
      consultant,
    );
    expect(res.statusCode).toBe(403);
  });
});
