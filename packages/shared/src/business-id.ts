/**
 * Finnish business id (Y-tunnus): seven digits, a hyphen and a check digit. The check digit is
 * 11 − (Σ digit × weight mod 11) with the weights 7, 9, 10, 5, 8, 4, 2; a remainder of 0 gives 0
 * and a remainder of 1 is never issued. Older ids with six digits are written with a leading 0.
 */
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2];

export function isValidBusinessId(value: string): boolean {
  const m = /^(\d{7})-(\d)$/.exec(value);
  if (!m) return false;
  const sum = WEIGHTS.reduce((acc, w, i) => acc + w * Number(m[1][i]), 0);
  const r = sum % 11;
  if (r === 1) return false;
  return Number(m[2]) === (r === 0 ? 0 : 11 - r);
}
