/**
 * Roles and their fixed ids. The ids are stored on users and in tokens, and
 * returned to the browser as `roleID`; never renumber them.
 */
export const ROLE = {
  providerAdmin: 1,
  consultant: 2,
  companyAdmin: 3,
  clientUser: 4,
} as const;

export type RoleId = (typeof ROLE)[keyof typeof ROLE];
export type RoleKey = keyof typeof ROLE;

export const ROLE_IDS: readonly RoleId[] = [1, 2, 3, 4];

export const roleKeyOf = (id: number): RoleKey | undefined =>
  (Object.keys(ROLE) as RoleKey[]).find((k) => ROLE[k] === id);

/** Provider side (admin, consultant) versus client company side. */
export const isProviderRole = (id: number): boolean => id === ROLE.providerAdmin || id === ROLE.consultant;
export const isClientRole = (id: number): boolean => id === ROLE.companyAdmin || id === ROLE.clientUser;

/** Which of the three menus a role sees. */
export type MenuKind = 'admin' | 'consultant' | 'company';
export const menuKindOf = (roleId: number): MenuKind =>
  roleId === ROLE.providerAdmin ? 'admin' : roleId === ROLE.consultant ? 'consultant' : 'company';

export const LANGUAGE = { en: 1, fi: 2 } as const;
export type LanguageId = (typeof LANGUAGE)[keyof typeof LANGUAGE];
export const languageCodeOf = (id: number): 'en' | 'fi' => (id === LANGUAGE.fi ? 'fi' : 'en');
export const languageIdOf = (code: string): LanguageId => (code === 'fi' ? LANGUAGE.fi : LANGUAGE.en);

export const THEME_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
export const DEFAULT_THEME_ID = 1;
