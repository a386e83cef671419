// The demo companies' cost and usage mix against a Finnish business's (the Finnish market's figures
// the seed follows, docs/demo.md): EU and Nordic-Baltic roaming is priced as at home, trips further are rare,
// so roaming and calls abroad are a few per cent of the bill and most data is used at home.
import { describe, expect, it } from 'vitest';
import { buildModel, Random, type InvoiceModel } from '@kulu/invoices/generator';
import { DEMO_COMPANY, demoInvoiceModel } from './company.js';
import { DEMO_CLIENTS } from './data.js';
import { DEMO_MONTHS, demoMonths, seededDemoOptions } from './invoices.js';

/** At most this share of the invoiced cost is for zones outside Finland (roaming, calls abroad). */
const ROAMING_COST_SHARE = 0.05;
/** At most this share of the data volume is used abroad. */
const DATA_ABROAD_SHARE = 0.1;

/** The cost outside Finland's zone and the data used abroad, each as a share of the whole. */
function mixOf(models: InvoiceModel[]) {
  let cost = 0;
  let roaming = 0;
  let data = 0;
  let dataAbroad = 0;
  for (const model of models) {
    for (const line of [...model.subscriptions.flatMap((s) => s.lines), ...model.otherLines]) {
      const abroad = line.region !== null && line.region !== 'domestic';
      cost += line.amountCents;
      if (abroad) roaming += line.amountCents;
      if (line.kind === 'data') {
        data += line.mbTenths!;
        if (abroad) dataAbroad += line.mbTenths!;
      }
    }
  }
  return { roamingCost: roaming / cost, dataAbroad: dataAbroad / data };
}

const today = new Date('2026-12-02T08:00:00Z');

/** A demo year of the invoices each demo client gets, per client's business id and operator. */
async function demoYear(): Promise<Array<{ who: string; models: InvoiceModel[] }>> {
  const months = demoMonths(today);
  const out: Array<{ who: string; models: InvoiceModel[] }> = [];
  for (const plan of DEMO_COMPANY) {
    const client = DEMO_CLIENTS.find((c) => c.businessId === plan.businessId)!;
    out.push({
      who: `${client.companyName} ${plan.operator}`,
      models: months.map(({ index, invoiceDate }) =>
        demoInvoiceModel(plan, { name: client.companyName, address: [] }, DEMO_MONTHS, index, invoiceDate),
      ),
    });
  }
  const saimaan = DEMO_CLIENTS.find((c) => c.companyName === 'Saimaan Logistiikka Oy')!;
  const buyer = { name: saimaan.companyName, businessId: saimaan.businessId };
  const models: InvoiceModel[] = [];
  for (const { index, invoiceDate } of months) {
    const options = await seededDemoOptions(buyer, {
      operator: 'DNA',
      seed: 4201,
      subscriptions: 24 + index,
      invoiceDate,
    });
    models.push(buildModel(new Random(options.seed), options));
  }
  out.push({ who: `${saimaan.companyName} DNA`, models });
  return out;
}

describe('the demo companies’ mix', () => {
  it('keeps roaming and calls abroad within a few per cent of each demo company’s cost, and most data at home', async () => {
    const year = await demoYear();
    expect(year.map((y) => y.who)).toEqual([
      'Pohjola Rakennus Oy Elisa',
      'Pohjola Rakennus Oy Telia',
      'Saimaan Logistiikka Oy DNA',
    ]);
    for (const { who, models } of year) {
      const mix = mixOf(models);
      // Some use abroad (in the EU priced as at home), never a third of the bill.
      expect({ who, roamingCost: mix.roamingCost <= ROAMING_COST_SHARE }).toEqual({ who, roamingCost: true });
      expect({ who, dataAbroad: mix.dataAbroad > 0 && mix.dataAbroad <= DATA_ABROAD_SHARE }).toEqual({
        who,
        dataAbroad: true,
      });
    }
  });

  it('the seeded generator’s frequent use abroad (its default) is what the business mix is not', async () => {
    // Without `abroad: 'business'` the second demo company was 31 % roaming, half of its data abroad.
    const saimaan = DEMO_CLIENTS.find((c) => c.companyName === 'Saimaan Logistiikka Oy')!;
    const buyer = { name: saimaan.companyName, businessId: saimaan.businessId };
    const models: InvoiceModel[] = [];
    for (const { index, invoiceDate } of demoMonths(today)) {
      const options = await seededDemoOptions(buyer, {
        operator: 'DNA',
        seed: 4201,
        subscriptions: 24 + index,
        invoiceDate,
      });
      models.push(buildModel(new Random(options.seed), { ...options, abroad: 'frequent' }));
    }
    const mix = mixOf(models);
    expect(mix.roamingCost).toBeGreaterThan(ROAMING_COST_SHARE);
    expect(mix.dataAbroad).toBeGreaterThan(DATA_ABROAD_SHARE);
  });
});
