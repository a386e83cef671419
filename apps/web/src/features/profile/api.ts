import { queryOptions } from '@tanstack/react-query';
import type { ChangePasswordRequest, Profile, ProfileUpdate, TokenResponse } from '@kulu/shared';
import { api } from '../../lib/api';

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: () => api.get<Profile>('/api/profile'),
});

export const updateProfile = (body: ProfileUpdate) => api.put<Profile>('/api/profile', body);

export function uploadLogo(file: File) {
  const data = new FormData();
  data.append('file', file);
  return api.request<{ logo: string }>('/api/profile/logo', { method: 'POST', formData: data });
}

export const deleteLogo = () => api.delete<unknown>('/api/profile/logo');

/**
 * The server invalidates the user's tokens on a password change and answers with a fresh
 * token for this session (plus the message); older servers answered `{message}` only.
 */
export const changePassword = (body: ChangePasswordRequest) =>
  api.post<{ message: string } & Partial<TokenResponse>>('/api/profile/password', body);
