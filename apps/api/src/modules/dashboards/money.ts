/** Euros as decimal strings ("15.90", the API's money) to integer cents and back, exactly. */
export const toCents = (s: string | null | undefined): number =>
  s == null ? 0 : Math.round(Number(s) * 100);

export const euros = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const a = Math.abs(cents);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
};
