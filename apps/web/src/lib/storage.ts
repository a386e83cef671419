import type { ClientInfo, TokenResponse } from '@kulu/shared';

/**
 * The client session of spec §3, kept in localStorage under the spec's own field names
 * (one key per field: `token`, `token_type`, `fullName`, `roleID`, …).
 */
export interface Session extends ClientInfo {
  token: string;
  token_type: string;
}

type FieldKind = 'string' | 'json';

const FIELDS: Record<keyof Session, FieldKind> = {
  token: 'string',
  token_type: 'string',
  fullName: 'string',
  emailID: 'string',
  roleID: 'json',
  languageID: 'json',
  logo: 'json',
  applicationThemeID: 'json',
  basePath: 'string',
  acessPermissions: 'json',
  loggedInOperatorName: 'json',
  loggedInOperatorID: 'json',
  clientId: 'json',
  companyName: 'json',
  menuDisabled: 'json',
  operators: 'json',
};

export const SESSION_KEYS = Object.keys(FIELDS) as (keyof Session)[];

export const LANGUAGE_KEY = 'language';

/** The subset of the Web Storage API the session needs (lets tests pass a Map-backed fake). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const parseJson = (raw: string | null): unknown => {
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
};

/** Reads the stored session; `null` when there is no token. Missing fields get safe defaults. */
export function readSession(storage: KeyValueStorage): Session | null {
  const token = storage.getItem('token');
  if (!token) return null;
  const num = (k: keyof Session, fallback: number) => {
    const v = parseJson(storage.getItem(k));
    return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
  };
  const nullable = <T>(k: keyof Session, guard: (v: unknown) => v is T): T | null => {
    const v = parseJson(storage.getItem(k));
    return guard(v) ? v : null;
  };
  const isString = (v: unknown): v is string => typeof v === 'string';
  const isNumber = (v: unknown): v is number => typeof v === 'number';
  const permissions = parseJson(storage.getItem('acessPermissions'));
  const operators = parseJson(storage.getItem('operators'));
  return {
    token,
    token_type: storage.getItem('token_type') ?? 'bearer',
    fullName: storage.getItem('fullName') ?? '',
    emailID: storage.getItem('emailID') ?? '',
    roleID: num('roleID', 0),
    languageID: num('languageID', 1),
    logo: nullable('logo', isString),
    applicationThemeID: num('applicationThemeID', 1),
    basePath: storage.getItem('basePath') ?? '',
    acessPermissions: Array.isArray(permissions) ? permissions.filter(isString) : [],
    loggedInOperatorName: nullable('loggedInOperatorName', isString),
    loggedInOperatorID: nullable('loggedInOperatorID', isNumber),
    clientId: nullable('clientId', isNumber),
    companyName: nullable('companyName', isString),
    menuDisabled: parseJson(storage.getItem('menuDisabled')) === true,
    operators: Array.isArray(operators)
      ? operators.filter(
          (o): o is { id: number; name: string } =>
            typeof o === 'object' && o !== null && isNumber(o.id) && isString(o.name),
        )
      : [],
  };
}

export function writeSession(storage: KeyValueStorage, session: Session): void {
  for (const key of SESSION_KEYS) {
    const value = session[key];
    storage.setItem(key, FIELDS[key] === 'string' ? String(value) : JSON.stringify(value ?? null));
  }
}

export function clearStoredSession(storage: KeyValueStorage): void {
  for (const key of SESSION_KEYS) storage.removeItem(key);
}

/** The session a token answer (POST /api/Token, Account/login, session/operator) gives. */
export function sessionFromToken(res: TokenResponse): Session {
  const all: Record<string, unknown> = { ...res, token: res.access_token };
  return Object.fromEntries(SESSION_KEYS.map((k) => [k, all[k]])) as unknown as Session;
}
