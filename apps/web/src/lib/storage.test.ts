import { describe, expect, it } from 'vitest';
import type { TokenResponse } from '@kulu/shared';
import { clearStoredSession, readSession, sessionFromToken, writeSession } from './storage';
import { memoryStorage } from './memory-storage';

const memory = memoryStorage;

const token: TokenResponse = {
  access_token: 'jwt',
  token_type: 'bearer',
  expires_in: 3600,
  fullName: 'Anna Virtanen',
  emailID: 'anna@x.fi',
  roleID: 3,
  languageID: 2,
  logo: null,
  applicationThemeID: 4,
  basePath: '/company',
  acessPermissions: ['general', 'dashboards'],
  loggedInOperatorName: 'Elisa',
  loggedInOperatorID: 2,
  clientId: 1,
  companyName: 'Pohjola Rakennus Oy',
  menuDisabled: false,
  operators: [{ id: 2, name: 'Elisa' }],
};

describe('session storage', () => {
  it('stores each field under the spec name and reads it back', () => {
    const s = memory();
    writeSession(s, sessionFromToken(token));
    expect(s.map.get('token')).toBe('jwt');
    expect(s.map.get('roleID')).toBe('3');
    expect(s.map.get('fullName')).toBe('Anna Virtanen');
    expect(JSON.parse(s.map.get('acessPermissions')!)).toEqual(['general', 'dashboards']);
    expect(s.map.has('access_token')).toBe(false);
    expect(s.map.has('expires_in')).toBe(false);
    expect(readSession(s)).toEqual(sessionFromToken(token));
  });

  it('has no session without a token and survives garbage values', () => {
    const s = memory();
    expect(readSession(s)).toBeNull();
    s.setItem('token', 'garbage');
    s.setItem('roleID', 'not json');
    s.setItem('acessPermissions', '{');
    const session = readSession(s)!;
    expect(session.token).toBe('garbage');
    expect(session.roleID).toBe(0);
    expect(session.acessPermissions).toEqual([]);
    expect(session.applicationThemeID).toBe(1);
  });

  it('clears only the session keys (the language choice stays)', () => {
    const s = memory();
    s.setItem('language', 'fi');
    writeSession(s, sessionFromToken(token));
    clearStoredSession(s);
    expect([...s.map.keys()]).toEqual(['language']);
  });
});
