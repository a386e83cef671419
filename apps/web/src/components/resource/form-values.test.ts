import { describe, expect, it } from 'vitest';
import {
  costCategoryMaster,
  costCenterMaster,
  helpFileMaster,
  paymentResource,
  planMaster,
  contractResource,
} from '@kulu/shared';
import {
  fieldIssueCode,
  fieldProblem,
  fileOf,
  formFields,
  isVisible,
  toFormData,
  toFormValues,
  toPayload,
} from './form-values';

const clientField = planMaster.fields.find((f) => f.key === 'clientId')!;

describe('form values', () => {
  it('starts a new plan with the schema defaults', () => {
    const v = toFormValues(planMaster, null, 'en');
    expect(v.scope).toBe('general');
    expect(v.coverage).toBe('no_limitations');
    expect(v.considerForOptimization).toBe(true);
    expect(v.unlimited).toBe(false);
    expect(v.name).toBeUndefined();
  });

  it('shows amounts with a decimal comma in Finnish and numbers as text', () => {
    const row = { id: 1, name: 'Yritysliittymä 5G', listPrice: '24.90', dataSpeedMbps: 300, unlimited: true };
    expect(toFormValues(planMaster, row, 'fi')).toMatchObject({
      listPrice: '24,90',
      dataSpeedMbps: '300',
      unlimited: true,
    });
    expect(toFormValues(planMaster, row, 'en').listPrice).toBe('24.90');
  });

  it('sends what the create schema accepts; blanks and hidden fields left out', () => {
    const body = toPayload(planMaster, {
      name: ' Perus 5G ',
      operatorId: 1,
      planType: 'flat_rate',
      listPrice: '19,90',
      contractPrice: '',
      scope: 'general',
      clientId: 7,
      unlimited: undefined,
    });
    expect(body).toMatchObject({ name: 'Perus 5G', listPrice: '19,90', unlimited: false });
    expect(body).not.toHaveProperty('contractPrice');
    expect(body).not.toHaveProperty('clientId');
    expect(planMaster.create.safeParse(body).success).toBe(true);
  });

  it('shows the client only for customer-specific plans', () => {
    expect(isVisible(clientField, { scope: 'general' })).toBe(false);
    expect(isVisible(clientField, { scope: 'customer_specific' })).toBe(true);
  });

  it('leaves the file out when editing a help file', () => {
    expect(formFields(helpFileMaster, false).map((f) => f.key)).toContain('file');
    expect(formFields(helpFileMaster, true).map((f) => f.key)).not.toContain('file');
  });
});

describe('field problems (spec §5)', () => {
  const category = { name: 'Data EU', nameFi: 'Tiedonsiirto EU', usageType: 'data', zone: 'eu' };

  it('a blank required field is required', () => {
    expect(fieldProblem(costCategoryMaster, 'nameFi', { ...category, nameFi: '  ' })).toBe('required');
    expect(fieldProblem(costCategoryMaster, 'nameFi', category)).toBeNull();
  });

  it('a value the schema refuses is invalid', () => {
    const plan = { name: 'P', operatorId: 1, planType: 'flat_rate', listPrice: '12.345' };
    expect(fieldProblem(planMaster, 'listPrice', plan)).toBe('invalid');
    expect(fieldProblem(planMaster, 'listPrice', { ...plan, listPrice: '12,34' })).toBeNull();
    expect(fieldProblem(planMaster, 'dataSpeedMbps', { ...plan, dataSpeedMbps: 'fast' })).toBe('invalid');
  });

  it('a field shown only sometimes is required only when shown', () => {
    const plan = { name: 'P', operatorId: 1, planType: 'flat_rate', listPrice: '10' };
    expect(fieldProblem(planMaster, 'clientId', { ...plan, scope: 'general' })).toBeNull();
    expect(fieldProblem(planMaster, 'clientId', { ...plan, scope: 'customer_specific' })).toBe('required');
  });

  it('an optional reference may stay empty', () => {
    expect(fieldProblem(costCenterMaster, 'subCompanyId', { clientId: 1, name: 'IT' })).toBeNull();
  });
});

describe('help file upload body', () => {
  it('carries the text fields and then the file', () => {
    const file = new File(['%PDF-1.4'], 'ohje.pdf', { type: 'application/pdf' });
    const data = toFormData(helpFileMaster, {
      roleId: 1,
      page: '/admin/master/plan',
      languageId: 2,
      file: [{ uid: '1', name: 'ohje.pdf', originFileObj: file }],
    });
    expect([...data.keys()]).toEqual(['roleId', 'page', 'languageId', 'file']);
    expect(data.get('page')).toBe('/admin/master/plan');
    expect((data.get('file') as File).name).toBe('ohje.pdf');
    expect(fileOf([])).toBeUndefined();
  });
});

describe("the schema's own message of a field", () => {
  it("names the rule a refused amount breaks, and nothing for zod's own sentences", () => {
    const zero = { paymentDate: '2026-03-01', amount: '0' };
    expect(fieldProblem(paymentResource, 'amount', zero)).toBe('invalid');
    expect(fieldIssueCode(paymentResource, 'amount', zero)).toBe('paymentAmountPositive');
    expect(fieldIssueCode(paymentResource, 'amount', { ...zero, amount: 'abc' })).toBeNull();
    expect(fieldIssueCode(paymentResource, 'amount', { ...zero, amount: '12,50' })).toBeNull();
  });

  it('says a refinement\'s bare "invalid" as the field\'s own sentence (a contract ending before its start)', () => {
    const reversed = {
      startDate: '2026-06-01',
      endDate: '2026-01-01',
      billingCycle: 'monthly',
      numberOfPlans: '5',
      units: '1',
    };
    expect(fieldProblem(contractResource, 'endDate', reversed)).toBe('invalid');
    expect(fieldIssueCode(contractResource, 'endDate', reversed)).toBeNull();
  });
});
