// Test helper (imported by tests only): counts the argon2 verifications. A test file mocks the
// password module with it:
//   vi.mock('../lib/passwords.js', async (original) =>
//     (await import('../test/password-spy.js')).spiedPasswords(await original()));
import type * as passwords from '../lib/passwords.js';

/** Every argon2 verification, by the hash it was checked against. */
export const verified: string[] = [];

/** The password module, its verifications recorded in `verified`. */
export function spiedPasswords(real: typeof passwords): typeof passwords {
  return {
    ...real,
    verifyPassword: async (stored: string | null, password: string) => {
      verified.push(stored ?? '');
      return real.verifyPassword(stored, password);
    },
  };
}
