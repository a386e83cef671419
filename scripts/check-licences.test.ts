import { describe, expect, it } from 'vitest';
import { allowed, checkLock } from './check-licences';

describe('the production licence check', () => {
  it('reads SPDX expressions: OR needs one allowed side, AND needs both', () => {
    expect(allowed('MIT')).toBe(true);
    expect(allowed('(MIT OR GPL-3.0-or-later)')).toBe(true);
    expect(allowed('(MIT OR SSPL-1.0)')).toBe(true);
    expect(allowed('(MIT AND Zlib)')).toBe(true);
    expect(allowed('(MIT AND SSPL-1.0)')).toBe(false);
    expect(allowed('GPL-2.0-only')).toBe(false);
    expect(allowed('MIT/X11')).toBe(true);
    expect(() => allowed('(MIT OR')).toThrow();
  });

  it('refuses a production package whose licence is not allowed or not stated, and ignores dev packages', () => {
    const lock = {
      packages: {
        '': { name: 'kulu' },
        'node_modules/a': { version: '1.0.0', license: 'MIT' },
        'node_modules/b': { version: '2.0.0', license: 'SSPL-1.0' },
        'node_modules/c': { version: '3.0.0' },
        'node_modules/d': { version: '1.0.0', license: 'Commercial', dev: true },
        'node_modules/buffers': { version: '0.1.1' },
        'node_modules/x/node_modules/e': { version: '1.0.0', license: 'BUSL-1.1' },
      },
    };
    expect(checkLock(lock)).toEqual({
      count: 5,
      problems: [
        'b@2.0.0: SSPL-1.0 is not on the allow-list',
        'c@3.0.0 (node_modules/c): no licence stated',
        'e@1.0.0: BUSL-1.1 is not on the allow-list',
      ],
    });
  });
});
