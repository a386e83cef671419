import { API_BASE } from './api-base';
import { createApiClient } from './api-client';
import { getToken } from './session';

let sessionExpiredHandler: () => void = () => undefined;

/** The app shell registers what a 401 does (alert, clear, go to /login); see SessionExpiryBridge. */
export const setSessionExpiredHandler = (handler: () => void): void => {
  sessionExpiredHandler = handler;
};

export const api = createApiClient({
  fetch: (input, init) => fetch(input, init),
  getToken,
  getCookies: () => document.cookie,
  onSessionExpired: () => sessionExpiredHandler(),
  apiBase: API_BASE,
});
