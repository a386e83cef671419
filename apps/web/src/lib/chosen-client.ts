import { useEffect, useState } from 'react';
import { isProviderRole } from '@kulu/shared';
import { getSession, subscribeSession } from './session';
import type { KeyValueStorage } from './storage';

/**
 * The client a provider user (admin, consultant) works on, remembered across pages: chosen on
 * one page (reports, dashboards, optimization, upload, downloads, alerts), the next page opens on
 * it. One value per browser, kept with the email of the user who chose it (another user signing in
 * on the same browser does not inherit it) and forgotten on sign-out.
 */
export const CHOSEN_CLIENT_KEY = 'chosenClient';

/** The client `email` chose last in this storage, if any. */
export function readChosenClient(storage: KeyValueStorage, email: string): number | undefined {
  const raw = storage.getItem(CHOSEN_CLIENT_KEY);
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v !== 'object' || v === null) return undefined;
    const { email: owner, clientId } = v as { email?: unknown; clientId?: unknown };
    return owner === email && typeof clientId === 'number' && Number.isInteger(clientId) && clientId > 0
      ? clientId
      : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers `email`'s chosen client (none: forgets it). */
export function writeChosenClient(
  storage: KeyValueStorage,
  email: string,
  clientId: number | undefined,
): void {
  if (clientId === undefined) storage.removeItem(CHOSEN_CLIENT_KEY);
  else storage.setItem(CHOSEN_CLIENT_KEY, JSON.stringify({ email, clientId }));
}

const browserStorage = (): KeyValueStorage | null =>
  typeof localStorage === 'undefined' ? null : localStorage;

/** The signed-in provider user's remembered client; undefined for a company user or none. */
export function chosenClient(): number | undefined {
  const session = getSession();
  const storage = browserStorage();
  if (!session || !storage || !isProviderRole(session.roleID)) return undefined;
  return readChosenClient(storage, session.emailID);
}

/** Remembers the client the signed-in provider user chose (or cleared). */
export function rememberClient(clientId: number | undefined): void {
  const session = getSession();
  const storage = browserStorage();
  if (!session || !storage || !isProviderRole(session.roleID)) return;
  writeChosenClient(storage, session.emailID, clientId);
}

// Signing out forgets the choice.
if (typeof window !== 'undefined') {
  subscribeSession(() => {
    if (!getSession()) browserStorage()?.removeItem(CHOSEN_CLIENT_KEY);
  });
}

/**
 * A page's chosen client: starts at `fromUrl` (a link naming the client, e.g. from the portfolio)
 * or else the remembered one; choosing remembers it for the other pages.
 */
export function useChosenClient(fromUrl?: number): [number | undefined, (id: number | undefined) => void] {
  const [clientId, setClientId] = useState<number | undefined>(() => fromUrl ?? chosenClient());
  useEffect(() => {
    if (fromUrl !== undefined) rememberClient(fromUrl);
  }, [fromUrl]);
  const choose = (id: number | undefined) => {
    rememberClient(id);
    setClientId(id);
  };
  return [clientId, choose];
}
