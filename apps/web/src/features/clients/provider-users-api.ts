import { queryOptions } from '@tanstack/react-query';
import {
  PROVIDER_USER_ROLES,
  PROVIDER_USER_SORTABLE,
  PROVIDER_USER_STATUSES,
  defineMaster,
  providerUserInputSchema,
  providerUserSchema,
  type ProviderUserOptions,
  type ProviderUserSaved,
  type ProviderUserStatus,
} from '@kulu/shared';
import { api } from '../../lib/api';

/** The provider's own admins and consultants (issue 11; decisions/0012). */
export const PROVIDER_USERS_KEY = ['provider-users'] as const;

const label = (key: string) => `clients.providerUsers.${key}`;

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
    { key: 'name', labelKey: label('name'), type: 'text' },
    { key: 'email', labelKey: label('email'), type: 'text' },
    { key: 'role', labelKey: label('role'), type: 'enum' },
    { key: 'status', labelKey: label('status'), type: 'enum' },
    { key: 'lastLoginAt', labelKey: label('lastLoginAt'), type: 'date' },
  ],
  fields: [
    { key: 'name', labelKey: label('name'), type: 'text', required: true, maxLength: 200 },
    { key: 'email', labelKey: label('email'), type: 'text', required: true },
    { key: 'contactNumber', labelKey: label('contactNumber'), type: 'phone' },
    {
      key: 'role',
      labelKey: label('role'),
      type: 'enum',
      required: true,
      options: PROVIDER_USER_ROLES.map((value) => ({ value, labelKey: label(`roles.${value}`) })),
    },
    { key: 'status', labelKey: label('status'), type: 'enum' },
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
