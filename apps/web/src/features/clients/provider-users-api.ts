import { queryOptions } from '@tanstack/react-query';
import {
  PROVIDER_USER_ROLES,
  PROVIDER_USER_SORTABLE,
  PROVIDER_USER_STATUSES,
  defineMaster,
  labelledBy,
  providerUserInputSchema,
  providerUserSchema,
  type ProviderUserOptions,
  type ProviderUserSaved,
  type ProviderUserStatus,
} from '@kulu/shared';
import { api } from '../../lib/api';

/** The provider's own admins and consultants (issue 11; decisions/0012). */
export const PROVIDER_USERS_KEY = ['provider-users'] as const;

const user = labelledBy('clients.providerUsers');

/**
 * The API's provider users (`/api/provider-users`: the list query of `providerUserListQuerySchema`,
 * writes answering `{ user, code, message }`) as a declared resource for the web's resource screen:
 * searched by name, email or contact number, filtered by role and status; never deleted
 * (deactivated by a workflow of their own). The role's permissions and a consultant's companies
 * are the form's items beside these fields.
 */
export const providerUserResource = defineMaster({
  key: 'providerUsers',
  path: 'provider-users',
  menuKey: 'clients',
  permission: 'users.manage',
  searchable: ['name', 'email', 'contactNumber'],
  sortable: PROVIDER_USER_SORTABLE,
  defaultSort: 'name',
  filters: {
    role: { type: 'enum', values: PROVIDER_USER_ROLES },
    status: { type: 'enum', values: PROVIDER_USER_STATUSES },
  },
  columns: [
    user.col('name'),
    user.col('email'),
    user.col('role', 'enum'),
    user.col('status', 'enum'),
    user.col('lastLoginAt', 'date'),
  ],
  fields: [
    user.field('name', 'text', { required: true, maxLength: 200 }),
    user.field('email', 'text', { required: true }),
    user.field('contactNumber', 'phone'),
    user.field('role', 'enum', {
      required: true,
      options: PROVIDER_USER_ROLES.map((value) => ({ value, labelKey: user.labelKey(`roles.${value}`) })),
    }),
    user.field('status', 'enum'),
  ],
  messages: {
    created: 'providerUserAdded',
    updated: 'providerUserUpdated',
    // Never deleted (no delete route): the defaults stand in.
    deleted: 'deleted',
    duplicate: 'userEmailExists',
    inUse: 'inUse',
  },
  savedAs: 'user',
  entity: providerUserSchema,
  create: providerUserInputSchema,
});

export const providerUserOptionsQuery = () =>
  queryOptions({
    queryKey: [...PROVIDER_USERS_KEY, 'options'],
    queryFn: ({ signal }) => api.get<ProviderUserOptions>('/api/provider-users/options', { signal }),
  });

export const setProviderUserStatus = ({ id, status }: { id: number; status: ProviderUserStatus }) =>
  api.post<ProviderUserSaved>(
    `/api/provider-users/${id}/${status === 'inactive' ? 'deactivate' : 'activate'}`,
    {},
  );
