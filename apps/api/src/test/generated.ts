// Test helper (imported by tests only): generated invoices to a demo company.
import { generateInvoice } from '@kulu/invoices';
import { BUYER } from './helpers.js';

/** A generated invoice to the demo company Pohjola (the company admin's and client user's). */
export const forPohjola = (opts: Omit<Parameters<typeof generateInvoice>[0], 'buyer'>) =>
  generateInvoice({ ...opts, buyer: BUYER.pohjola });
