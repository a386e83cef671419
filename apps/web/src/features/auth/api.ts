import type { OperatorOption, ResetLinkStatus, SignupRequest, TokenResponse } from '@kulu/shared';
import { api } from '../../lib/api';

export const operatorsQuery = {
  queryKey: ['operators', 'public'],
  queryFn: () => api.get<OperatorOption[]>('/api/operators/public'),
  staleTime: 10 * 60_000,
};

export interface LoginValues {
  email: string;
  password: string;
  operatorId?: number;
}

/** POST /api/Token, form-encoded (spec §7). */
export const requestToken = (v: LoginValues) =>
  api.request<TokenResponse>('/api/Token', {
    method: 'POST',
    anonymous: true,
    form: {
      grant_type: 'password',
      username: v.email.trim(),
      password: v.password,
      OperatorId: v.operatorId,
    },
  });

export const signup = (body: SignupRequest) =>
  api.post<{ message: string }>('/api/Account/Signup', body, { anonymous: true });

export const forgotPassword = (email: string) =>
  api.get<{ message: string }>('/api/Account/ForgotPassword', {
    query: { email: email.trim() },
    anonymous: true,
  });

export interface SetPasswordBody {
  token: string;
  password: string;
  confirmPassword: string;
}

/** Reset (text answer) and activation (JSON answer) share the body. */
export const setPassword = (endpoint: string, body: SetPasswordBody) =>
  api.post<unknown>(endpoint, body, { anonymous: true });

/** Whether a link's token is still open (unused, unexpired), asked without using it. */
export const linkStatus = (endpoint: string, token: string) =>
  api.post<ResetLinkStatus>(endpoint, { token }, { anonymous: true });

/** Ends the session on the server (its token is refused from now on), before the app forgets it. */
export const logout = () =>
  api.post<{ message: string }>('/api/Account/Logout', undefined, { ownUnauthorized: true });
