import i18n from 'i18next';
import { describe, expect, it } from 'vitest';

describe('Add Customer', () => {
  it('starts a new customer as a company (a type chosen by default), active, on manual upload', async () => {
    await i18n.init({ resources: {} });
    const { initialValues } = await import('./client-profile-form');
    expect(initialValues()).toMatchObject({
      kind: 'company',
      profileStatus: 'active',
      invoiceUploadMethod: 'manual',
    });
  }, 60_000);
});
