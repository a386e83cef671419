// Issue 38 item 7: a company with an operator but no contract with it yet had its first invoice of
// that operator refused "no contract" with no way forward. The refused invoice keeps the operator;
// once a user allowed to manage operator contracts adds the contract (the contracts' own PUT), the
// invoice is read again and imported.
import { describe, expect, it } from 'vitest';
import { generateFinvoice } from '@kulu/invoices/generator';
import { BUYER } from '../../test/helpers.js';
import { useInvoiceTestApp } from '../../test/fixtures.js';
import { settled, uploadFiles } from '../../test/uploads.js';

const app = useInvoiceTestApp(600_000);

describe('an invoice refused for a missing operator contract (item 7)', () => {
  it('is read again once the contract is added, by a user who may manage contracts; never otherwise', async () => {
    const { t, tok, pohjola } = app;
    // Pohjola has contracts with Elisa and Telia only.
    const xml = generateFinvoice({
      operator: 'dna',
      subscriptions: 2,
      seed: 38_007,
      buyer: BUYER.pohjola,
    }).xml;
    let id: number | undefined;
    const until = Date.now() + 400_000;
    while (id === undefined) {
      const res = await uploadFiles(t, tok.companyAdmin, [{ name: 'dna-38007.xml', data: xml }]);
      id = res.json().results?.[0]?.invoiceId;
      if (id === undefined) {
        expect(res.json().code, res.body).toBe('previousParseRunning');
        expect(Date.now()).toBeLessThan(until);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    const refused = await settled(t, tok.companyAdmin, id, 400_000);
    expect(refused).toMatchObject({
      uploadState: 'failed',
      errorCode: 'invoiceOperatorNoContract',
      operatorName: 'DNA',
    });
    const dna = refused.operatorId as number;
    expect(dna).toBeGreaterThan(0);

    const readAgain = (token: string, invoiceId = id!) =>
      t.inject({ method: 'POST', url: `/api/invoices/${invoiceId}/read-again`, token });
    // Still no contract: refused as before, nothing queued.
    const early = await readAgain(tok.companyAdmin);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('invoiceOperatorNoContract');
    // Another company's invoice is not found.
    expect((await readAgain(tok.otherCompanyAdmin)).statusCode).toBe(404);
    // A user without the contracts permission cannot add one (the page tells them who can).
    const contract = (token: string) =>
      t.inject({
        method: 'PUT',
        url: `/api/clients/${pohjola}/operator-contracts/${dna}`,
        token,
        payload: { uploadInvoiceReminder: false },
      });
    expect((await contract(tok.clientUser)).statusCode).toBe(403);

    const added = await contract(tok.companyAdmin);
    expect(added.statusCode, added.body).toBe(200);
    const again = await readAgain(tok.companyAdmin);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ code: 'invoiceReadAgain', message: 'The invoice is read again' });
    const done = await settled(t, tok.companyAdmin, id, 400_000);
    expect(done).toMatchObject({ uploadState: 'uploaded', errorCode: null, operatorName: 'DNA' });
    expect(done.subscriptionCount).toBe(2);
    // Only a refusal for a missing contract is read again this way.
    const twice = await readAgain(tok.companyAdmin);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('invoiceNotRereadable');
  });
});
