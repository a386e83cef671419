import { describe, expect, it } from 'vitest';
import { helpPageOf, opensInBrowser } from './help-page';

describe('helpPageOf', () => {
  it('is the route path the help files are stored under', () => {
    expect(helpPageOf('/company/invoice-upload')).toBe('/company/invoice-upload');
    expect(helpPageOf('/admin/reports/full-automation/')).toBe('/admin/reports/full-automation');
    expect(helpPageOf('/admin/master/plan?x=1')).toBe('/admin/master/plan');
    expect(helpPageOf('')).toBe('/');
    expect(helpPageOf('/')).toBe('/');
  });
  it('opens PDFs in the browser, downloads Word files', () => {
    expect(opensInBrowser('application/pdf')).toBe(true);
    expect(opensInBrowser('application/msword')).toBe(false);
  });
});
