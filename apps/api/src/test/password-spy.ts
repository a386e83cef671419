// Test helper (imported by tests only): counts the argon2 verifications and hashes. A test file mocks the
// password module with it:
//   vi.mock('../lib/passwords.js', async (original) =>
//     (await import('../test/password-spy.js')).spiedPasswords(await original()));
import type * as passwords from '../lib/passwords.js';

/** Every argon2 verification, by the hash it was checked against. */
export const verified: string[] = [];

/** Every argon2 hash made (of a new password: sign-up, reset, activation), by the password hashed. */
export const hashed: string[] = [];

/** The password module, its verifications recorded in `verified` and its hashes in `hashed`. */
export function spiedPasswords(real: typeof passwords): typeof passwords {
  return {
    ...real,
    hashPassword: (password: string) => {
      hashed.push(password);
      return real.hashPassword(password);
    },
    verifyPassword: async (stored: string | null, password: string) => {
      verified.push(stored ?? '');
      return real.verifyPassword(stored, password);
    },
  };
}
