import {
  App,
  Button,
  Checkbox,
  Col,
  Divider,
  Flex,
  Form,
  Input,
  Popconfirm,
  Row,
  Select,
  Space,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { CheckCircleOutlined, StopOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION_GROUPS, type MasterResource } from '@kulu/shared';
import type {
  PagedColumn,
  ResourceExtras,
  ResourceSectionProps,
  Row as ResourceRow,
} from '../../components/resource/resource-section';
import { formatDate } from '../../lib/format';
import { errorText } from '../../lib/form-rules';

/**
 * What the two user tables of Client Management share (a client's additional users and the
 * provider's own users): the status, permissions and last-login cells, the deactivate/activate
 * button of a row, and the form's access permissions (checkboxes by group). `texts`
 * is the texts' prefix (`clients.users`, `clients.providerUsers`), `testId` the test ids' one.
 */
type Texts = 'clients.users' | 'clients.providerUsers';
type Status = 'active' | 'inactive';

export const permissionKey = (p: string) => `clients.permissionNames.${p.replace('.', '_')}`;

/** The permission groups of spec §6, in the spec's order; the provider's own areas last. */
export function permissionGroups(provider: boolean): Array<[string, readonly string[]]> {
  return [
    ['general', [...PERMISSION_GROUPS.general, ...PERMISSION_GROUPS.savings, ...PERMISSION_GROUPS.alerts]],
    ['dashboards', PERMISSION_GROUPS.dashboards],
    ['uploadInvoice', PERMISSION_GROUPS.uploadInvoice],
    ...(provider
      ? [['clientManagement', PERMISSION_GROUPS.clientManagement] as [string, readonly string[]]]
      : []),
    [
      'reports',
      [...PERMISSION_GROUPS.reports, ...PERMISSION_GROUPS.unusedMonthCount, ...PERMISSION_GROUPS.downloads],
    ],
    ['clientMasters', PERMISSION_GROUPS.clientMasters],
    ['optimization', PERMISSION_GROUPS.optimization],
    ...(provider
      ? ([
          ['consultantBilling', PERMISSION_GROUPS.consultantBilling],
          ['providerMasters', PERMISSION_GROUPS.providerMasters],
          ['provider', PERMISSION_GROUPS.provider],
        ] as Array<[string, readonly string[]]>)
      : []),
  ];
}

type SectionProps = Pick<ResourceSectionProps, 'texts' | 'testIds' | 'deletable'> & {
  extras: Required<
    Pick<
      ResourceExtras,
      'intro' | 'searchWidth' | 'errorFields' | 'renderCell' | 'filters' | 'fields' | 'columns'
    >
  >;
};

type UserRow = { status: Status; activated: boolean; permissions: string[] };

/**
 * What both user tables declare alike on the resource screen: texts from their prefix, test ids
 * from `testId` (`client-user` → `client-users-table`, `client-user-phone`…), the help above the
 * table, search, the name cell (contact number below, `tag` beside), the status filter and choice
 * (`locked` rows keep theirs), the email field (the activation mail's help on a new user, the
 * declared "already exists" on it); never deleted. The columns: name and email, the table's
 * `declared` ones, then status (`statusWidth`), what the user is `limited` to, permissions and
 * last login.
 */
export function useUserSection<R extends UserRow>(
  resource: MasterResource,
  texts: Texts,
  testId: string,
  opts: {
    declared?: string[];
    statusWidth: number;
    limited: PagedColumn<R>;
    tag?: (row: ResourceRow) => ReactNode;
    locked?: (row: ResourceRow | null) => boolean;
  },
): SectionProps {
  const { t, i18n } = useTranslation();
  const cols = userColumns<R>(t, i18n.language === 'fi' ? 'fi' : 'en', texts, opts.statusWidth);
  const statusOptions = (['active', 'inactive'] as const).map((s) => ({
    value: s,
    label: t(`${texts}.statuses.${s}`),
  }));
  return {
    deletable: false,
    texts: {
      add: t(`${texts}.add`),
      addTitle: t(`${texts}.addTitle`),
      editTitle: t(`${texts}.editTitle`),
      empty: t(`${texts}.empty`),
      search: t(`${texts}.search`),
      edit: t(`${texts}.edit`),
    },
    testIds: {
      root: `${testId}s`,
      table: `${testId}s-table`,
      add: `${testId}-add`,
      form: `${testId}-form`,
      field: (k) => `${testId}-${k === 'contactNumber' ? 'phone' : k}`,
      edit: `${testId}-edit`,
    },
    extras: {
      intro: <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>,
      searchWidth: 320,
      columns: [
        'name',
        'email',
        ...(opts.declared ?? []),
        ...[cols.status, opts.limited, cols.permissions, cols.lastLoginAt].map(asRowColumn),
      ],
      renderCell: {
        name: (v, r) => (
          <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
            <span>
              {String(v)} {opts.tag?.(r)}
            </span>
            {typeof r.contactNumber === 'string' && (
              <Typography.Text type="secondary">{r.contactNumber}</Typography.Text>
            )}
          </Space>
        ),
      },
      filters: {
        status: {
          options: statusOptions,
          placeholder: t(`${texts}.statusFilter`),
          testId: `${testId}s-status`,
        },
      },
      // The spec's "… email already exists" belongs on the email.
      errorFields: { [resource.messages.duplicate]: 'email' },
      fields: {
        email: {
          item: (row) => ({ extra: row ? undefined : t(`${texts}.emailHelp`) }),
          input: () => (
            <Input type="email" maxLength={254} autoComplete="off" data-testid={`${testId}-email`} />
          ),
        },
        status: {
          input: () => <Select options={statusOptions} data-testid={`${testId}-status`} />,
          disabled: opts.locked,
        },
      },
    },
  };
}

/** A user column typed for the resource table (its rows are the declaration's entity). */
const asRowColumn = <R,>(c: PagedColumn<R>) => c as unknown as PagedColumn<ResourceRow>;

/** The columns status (with "not activated"), permissions (count, names on hover) and last login. */
function userColumns<R extends UserRow>(
  t: TFunction,
  lang: 'en' | 'fi',
  texts: Texts,
  statusWidth: number,
): { status: PagedColumn<R>; permissions: PagedColumn<R>; lastLoginAt: PagedColumn<R> } {
  return {
    status: {
      key: 'status',
      dataIndex: 'status',
      title: t(`${texts}.status`),
      width: statusWidth,
      render: (v: Status, r) => (
        <Space size={4} wrap>
          <Tag color={v === 'active' ? 'green' : 'default'}>{t(`${texts}.statuses.${v}`)}</Tag>
          {!r.activated && (
            <Tooltip title={t(`${texts}.invitedHelp`)}>
              <Tag color="gold">{t(`${texts}.invited`)}</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    permissions: {
      key: 'permissions',
      title: t(`${texts}.permissionsShort`),
      width: 140,
      render: (_v, r) => (
        <Tooltip title={r.permissions.map((p) => t(permissionKey(p))).join(', ')}>
          <span>{t(`${texts}.permissionsCount`, { count: r.permissions.length })}</span>
        </Tooltip>
      ),
    },
    lastLoginAt: {
      key: 'lastLoginAt',
      dataIndex: 'lastLoginAt',
      title: t(`${texts}.lastLoginAt`),
      width: 150,
      render: (v: string | null) => (v ? formatDate(v, lang) : t(`${texts}.never`)),
    },
  };
}

/**
 * A user row's deactivate or activate button, after a confirmation (`<testId>-deactivate` /
 * `-activate`): a workflow beside the resource, with its own route (`set`) and message; the
 * queries in `invalidate` are refreshed after it.
 */
export function UserStatusAction(p: {
  status: Status;
  set: (next: Status) => Promise<{ code: string; message: string }>;
  invalidate: readonly (readonly unknown[])[];
  texts: Texts;
  testId: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: p.set,
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      for (const queryKey of p.invalidate) void queryClient.invalidateQueries({ queryKey });
    },
    onError: (e) => void message.error(errorText(t, e)),
  });
  const next: Status = p.status === 'active' ? 'inactive' : 'active';
  const label = t(`${p.texts}.${next === 'inactive' ? 'deactivate' : 'activate'}`);
  return (
    <Popconfirm
      title={t(`${p.texts}.${next === 'inactive' ? 'deactivateConfirm' : 'activateConfirm'}`)}
      okText={label}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: next === 'inactive' }}
      onConfirm={() => change.mutate(next)}
    >
      <Button
        size="small"
        danger={next === 'inactive'}
        icon={next === 'inactive' ? <StopOutlined /> : <CheckCircleOutlined />}
        title={label}
        aria-label={label}
        data-testid={`${p.testId}-${next === 'inactive' ? 'deactivate' : 'activate'}`}
      />
    </Popconfirm>
  );
}

/**
 * The form's access permissions (form item `permissions`) under a divider: checkboxes by group of
 * those the caller may give (`grantable`), `isDisabled` ones shown but fixed; with `selectAll` a
 * button that checks every grantable one. Test ids `<testId>-permissions`, `<testId>-all-permissions`.
 */
export function PermissionsItem(p: {
  texts: Texts;
  groups: Array<[string, readonly string[]]>;
  grantable: ReadonlySet<string>;
  isDisabled?: (permission: string) => boolean;
  selectAll?: boolean;
  rowGap: number;
  testId: string;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <>
      <Divider style={{ margin: '4px 0 12px' }} />
      <Flex justify="space-between" align="baseline">
        <Typography.Text strong>{t(`${p.texts}.permissions`)}</Typography.Text>
        {p.selectAll && (
          <Button
            type="link"
            size="small"
            onClick={() => form.setFieldValue('permissions', [...p.grantable])}
            data-testid={`${p.testId}-all-permissions`}
          >
            {t(`${p.texts}.selectAll`)}
          </Button>
        )}
      </Flex>
      <Form.Item name="permissions" style={{ marginTop: 8 }}>
        <PermissionChecks
          groups={p.groups}
          grantable={p.grantable}
          isDisabled={p.isDisabled}
          rowGap={p.rowGap}
          testId={`${p.testId}-permissions`}
        />
      </Form.Item>
    </>
  );
}

/**
 * The access permissions as checkboxes by group, only those the caller may give (`grantable`);
 * a form item's control (`value`, `onChange`).
 */
function PermissionChecks(p: {
  value?: string[];
  onChange?: (v: string[]) => void;
  groups: Array<[string, readonly string[]]>;
  grantable: ReadonlySet<string>;
  isDisabled?: (permission: string) => boolean;
  rowGap: number;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Checkbox.Group
      style={{ width: '100%' }}
      value={p.value}
      onChange={(v) => p.onChange?.(v as string[])}
      data-testid={p.testId}
    >
      <Row gutter={[16, p.rowGap]}>
        {p.groups.map(([group, perms]) => {
          const shown = perms.filter((perm) => p.grantable.has(perm));
          if (!shown.length) return null;
          return (
            <Col key={group} xs={24} sm={12} md={8}>
              <Typography.Text strong>{t(`clients.permissionGroups.${group}`)}</Typography.Text>
              <Flex vertical gap={2} style={{ marginTop: 4 }}>
                {shown.map((perm) => (
                  <Checkbox key={perm} value={perm} disabled={p.isDisabled?.(perm)}>
                    {t(permissionKey(perm))}
                  </Checkbox>
                ))}
              </Flex>
            </Col>
          );
        })}
      </Row>
    </Checkbox.Group>
  );
}

/**
 * The form item of a choice of several rows (sub-companies, cost centers, companies) a user is
 * limited to; none chosen shows `placeholder` (e.g. "All sub-companies").
 */
export function IdsItem(p: {
  name: string;
  label: string;
  extra?: string;
  rows: ReadonlyArray<{ id: number; name: string }>;
  loading: boolean;
  placeholder: string;
  testId: string;
}) {
  return (
    <Form.Item name={p.name} label={p.label} extra={p.extra}>
      <Select<number[]>
        mode="multiple"
        allowClear
        loading={p.loading}
        placeholder={p.placeholder}
        optionFilterProp="label"
        options={p.rows.map((r) => ({ value: r.id, label: r.name }))}
        data-testid={p.testId}
      />
    </Form.Item>
  );
}
