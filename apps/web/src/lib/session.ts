import { useSyncExternalStore } from 'react';
import type { ClientInfo, TokenResponse } from '@kulu/shared';
import { clearStoredSession, readSession, sessionFromToken, writeSession, type Session } from './storage';

/**
 * The one in-memory copy of the stored session, with subscribers for React. Every write goes
 * through here so that localStorage and the screen never disagree.
 */
let current: Session | null = typeof localStorage === 'undefined' ? null : readSession(localStorage);
const listeners = new Set<() => void>();
/** Why the last session ended, for the login page to say so. */
let endReason: 'sessionExpired' | null = null;

const emit = () => listeners.forEach((l) => l());

function set(next: Session | null) {
  current = next;
  if (next) writeSession(localStorage, next);
  else clearStoredSession(localStorage);
  emit();
}

export const getSession = (): Session | null => current;
export const getToken = (): string | null => current?.token ?? null;

export const startSession = (res: TokenResponse): void => {
  endReason = null;
  set(sessionFromToken(res));
};

/** Merges fresh client info (GetClientInfo, settings answers) into the session. */
export const updateSession = (info: Partial<ClientInfo>): void => {
  if (current) set({ ...current, ...info });
};

export const endSession = (reason: 'sessionExpired' | null = null): void => {
  endReason = reason;
  set(null);
};

export const sessionEndReason = (): 'sessionExpired' | null => endReason;

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab logged in or out: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key === 'token') {
      current = readSession(localStorage);
      emit();
    }
  });
}

export const useSession = (): Session | null => useSyncExternalStore(subscribeSession, getSession);
