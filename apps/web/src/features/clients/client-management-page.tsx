import { useState } from 'react';
import { App, Button, Dropdown, Flex, Select, Tabs, Tag } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './texts';
import { Link } from 'react-router';
import {
  CLIENT_KINDS,
  CLIENT_SORTABLE,
  CLIENT_TABS,
  clientDetailPath,
  LEAD_STATUSES,
  PROFILE_STATUSES,
  UPLOAD_METHODS,
  type ClientListItem,
  type ClientSortKey,
} from '@kulu/shared';
import { AddButton } from '../../components/add-button';
import { PageHeading } from '../../components/page-heading';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { SearchBox } from '../../components/search-box';
import { errorText } from '../../lib/form-rules';
import { formatDate } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { AddCustomerModal } from './add-customer-modal';
import { ProviderUsersPanel } from './provider-users-panel';
import { useSession } from '../../lib/session';
import { CLIENTS_KEY, clientListQuery, convertClient, type ClientListParams } from './api';

const SORT: SortSpec<ClientSortKey> = { sortable: CLIENT_SORTABLE, defaultSort: 'companyName' };
const TABS = [...CLIENT_TABS, 'interested', 'users'] as const;
type Tab = (typeof TABS)[number];

interface Filters {
  tab: Tab;
  profileStatus?: (typeof PROFILE_STATUSES)[number];
  invoiceUploadMethod?: (typeof UPLOAD_METHODS)[number];
  leadStatus?: (typeof LEAD_STATUSES)[number];
}

const LEAD_COLORS: Record<string, string> = { hot: 'red', cold: 'blue', lost: 'default' };

/**
 * Client Management (spec §2): the provider's clients by tab (all, lead, company, consultant) with
 * search, filters, sort and paging, and the Interested Clients (sign-ups) to convert. A consultant
 * sees only the companies assigned to them (the API's Scope decides).
 */
export function ClientManagementPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const canManageUsers = !!useSession()?.acessPermissions.includes('users.manage');
  const { state, tableOf, searchBox, patch } = usePagedState<ClientSortKey, Filters>(SORT, { tab: 'all' });
  const usersTab = state.tab === 'users';
  const params: ClientListParams = {
    tab: state.tab === 'users' ? 'all' : state.tab,
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    order: state.order,
    q: state.q || undefined,
    profileStatus: state.profileStatus,
    invoiceUploadMethod: state.invoiceUploadMethod,
    leadStatus: state.leadStatus,
  };
  const list = useQuery({ ...clientListQuery(params), enabled: !usersTab });
  const convert = useMutation({
    mutationFn: convertClient,
    onSuccess: (res) => {
      void message.success(t(`errors.${res.code}`, { defaultValue: res.message }));
      void queryClient.invalidateQueries({ queryKey: CLIENTS_KEY });
    },
    onError: (err) => void message.error(errorText(t, err)),
  });
  // A converted client has no contract yet: its users are locked out until one is in force, so
  // the provider is told before, and where to add it.
  const confirmConvert = (row: ClientListItem, to: (typeof CLIENT_KINDS)[number]) =>
    void modal.confirm({
      title: t('clients.convertConfirm.title', { name: row.companyName, kind: t(`clients.convertTo.${to}`) }),
      content: to === 'lead' ? t('clients.convertConfirm.lead') : t('clients.convertConfirm.noContract'),
      okText: t('clients.convert'),
      cancelText: t('common.cancel'),
      onOk: () => convert.mutate({ id: row.id, to }),
    });
  const interested = state.tab === 'interested';
  const filtered = Boolean(state.q || state.profileStatus || state.invoiceUploadMethod || state.leadStatus);

  const columns: PagedColumn<ClientListItem>[] = [
    {
      key: 'companyName',
      dataIndex: 'companyName',
      title: t('clients.columns.companyName'),
      render: (v: string, row) => (
        <Link to={clientDetailPath(row.id)} data-testid="client-link">
          {v}
        </Link>
      ),
    },
    {
      key: 'businessId',
      dataIndex: 'businessId',
      title: t('clients.columns.businessId'),
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    { key: 'email', dataIndex: 'email', title: t('clients.columns.email') },
    ...(state.tab === 'all'
      ? [
          {
            key: 'kind',
            dataIndex: 'kind',
            title: t('clients.columns.kind'),
            render: (v: string) => t(`clients.kinds.${v}`),
          },
        ]
      : []),
    ...(interested
      ? [
          {
            key: 'createdAt',
            dataIndex: 'createdAt',
            title: t('clients.columns.signedUp'),
            render: (v: string) => formatDate(v, lang),
          },
        ]
      : [
          {
            key: 'profileStatus',
            dataIndex: 'profileStatus',
            title: t('clients.columns.profileStatus'),
            render: (v: string) => (
              <Tag color={v === 'active' ? 'green' : 'default'}>{t(`clients.profileStatuses.${v}`)}</Tag>
            ),
          },
          {
            key: 'leadStatus',
            dataIndex: 'leadStatus',
            title: t('clients.columns.leadStatus'),
            render: (v: string | null) =>
              v ? <Tag color={LEAD_COLORS[v]}>{t(`clients.leadStatuses.${v}`)}</Tag> : '',
          },
          {
            key: 'reminderDate',
            dataIndex: 'reminderDate',
            title: t('clients.columns.reminderDate'),
            render: (v: string | null) => formatDate(v, lang),
            onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
          },
          {
            key: 'invoiceUploadMethod',
            dataIndex: 'invoiceUploadMethod',
            title: t('clients.columns.uploadMethod'),
            render: (v: string) => t(`clients.uploadMethods.${v}`),
          },
        ]),
  ];

  const filterSelect = <K extends 'profileStatus' | 'invoiceUploadMethod' | 'leadStatus'>(
    key: K,
    values: readonly NonNullable<Filters[K]>[],
    labels: string,
  ) => (
    <Select
      allowClear
      placeholder={t(`clients.filters.${key}`)}
      aria-label={t(`clients.filters.${key}`)}
      style={{ minWidth: 180 }}
      value={state[key]}
      onChange={(v: Filters[K] | undefined) => patch({ [key]: v } as Partial<Filters>)}
      options={values.map((v) => ({ value: v, label: t(`clients.${labels}.${v}`) }))}
      data-testid={`filter-${key}`}
    />
  );

  return (
    <div data-testid="client-management-page">
      <PageHeading
        title={t('menu.clientManagement')}
        extra={
          <AddButton label={t('clients.add.title')} onClick={() => setAdding(true)} testId="add-customer" />
        }
      />
      <AddCustomerModal open={adding} onClose={() => setAdding(false)} />
      <Tabs
        activeKey={state.tab}
        onChange={(tab) =>
          patch({
            tab: tab as Tab,
            profileStatus: undefined,
            invoiceUploadMethod: undefined,
            leadStatus: undefined,
          })
        }
        items={TABS.filter((tab) => tab !== 'users' || canManageUsers).map((tab) => ({
          key: tab,
          label: t(`clients.tabs.${tab}`),
        }))}
        data-testid="client-tabs"
      />
      {usersTab ? (
        <ProviderUsersPanel />
      ) : (
        <PagedTable<ClientListItem, ClientSortKey>
          {...tableOf(list)}
          columns={columns}
          emptyText={
            filtered ? t('clients.noMatches') : interested ? t('clients.noInterested') : t('clients.empty')
          }
          toolbar={
            <Flex wrap gap={12} style={{ marginBottom: 16 }} align="center">
              <SearchBox {...searchBox} placeholder={t('clients.search')} width={380} />
              {!interested && filterSelect('profileStatus', PROFILE_STATUSES, 'profileStatuses')}
              {!interested && filterSelect('invoiceUploadMethod', UPLOAD_METHODS, 'uploadMethods')}
              {!interested && filterSelect('leadStatus', LEAD_STATUSES, 'leadStatuses')}
            </Flex>
          }
          rowActions={
            interested
              ? {
                  width: 140,
                  render: (row) => (
                    <Dropdown
                      trigger={['click']}
                      menu={{
                        items: CLIENT_KINDS.map((to) => ({ key: to, label: t(`clients.convertTo.${to}`) })),
                        onClick: ({ key }) => confirmConvert(row, key as (typeof CLIENT_KINDS)[number]),
                      }}
                    >
                      <Button
                        size="small"
                        icon={<SwapOutlined />}
                        loading={convert.isPending && convert.variables?.id === row.id}
                        data-testid="convert"
                      >
                        {t('clients.convert')}
                      </Button>
                    </Dropdown>
                  ),
                }
              : undefined
          }
          testId="clients-table"
        />
      )}
    </div>
  );
}
