import { Card, Empty, Flex, Grid, Skeleton, Tabs, Tag, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './texts';
import { Link, useParams, useSearchParams } from 'react-router';
import { ASSIGN_COMPANIES_PERMISSION, CLIENT_MANAGEMENT_PATH, type Client } from '@kulu/shared';
import { LoadError } from '../../components/load-error';
import { PageHeading } from '../../components/page-heading';
import { ApiRequestError } from '../../lib/api-client';
import { routeId } from '../../lib/route-id';
import { useSession } from '../../lib/session';
import { clientQuery } from './api';
import { AssignCompanies } from './assign-companies';
import { ClientProfileForm } from './client-profile-form';
import { BillingSection } from './billing-section';
import { ContractsSection } from './contracts-section';
import { PaymentsSection } from './payments-section';
import { SupportSection } from './support-section';
import { OperatorContractsSection } from '../../components/operator-contracts-section';
import { SubCompaniesSection } from './sub-companies-section';
import { ClientUsersSection } from './client-users-section';
import { InvoiceUsersSection, PlanDetailsSection } from './client-masters-sections';

/** The sections of a client (spec §2 Client Management) that exist on this client, in order. */
function sectionsOf(client: Client, permissions: readonly string[]) {
  const out: Array<{ key: string; render: () => React.ReactNode }> = [
    { key: 'profile', render: () => <ClientProfileForm key={client.updatedAt} client={client} /> },
  ];
  // Assigning companies is user management (the provider admin's), and only a consultant has them.
  if (client.type === 'consultant' && permissions.includes(ASSIGN_COMPANIES_PERMISSION))
    out.push({ key: 'assignCompanies', render: () => <AssignCompanies clientId={client.id} /> });
  // Sub-company management and additional users: a company's (a consultant firm has neither).
  if (client.type === 'company')
    out.push(
      { key: 'subCompanies', render: () => <SubCompaniesSection clientId={client.id} /> },
      { key: 'users', render: () => <ClientUsersSection clientId={client.id} /> },
      { key: 'invoiceUsers', render: () => <InvoiceUsersSection clientId={client.id} /> },
      { key: 'planDetails', render: () => <PlanDetailsSection clientId={client.id} /> },
    );
  // Contract management, billing management, client payments, on-demand support (spec §2 order).
  out.push(
    { key: 'contracts', render: () => <ContractsSection clientId={client.id} /> },
    { key: 'billing', render: () => <BillingSection clientId={client.id} /> },
    // Operator contract details: a company's operators (a consultant firm has none).
    ...(client.type === 'company'
      ? [{ key: 'operatorContracts', render: () => <OperatorContractsSection clientId={client.id} /> }]
      : []),
    { key: 'payments', render: () => <PaymentsSection clientId={client.id} /> },
    { key: 'support', render: () => <SupportSection clientId={client.id} /> },
  );
  return out;
}

/**
 * A client of Client Management opened from the list: its sections as tabs, the chosen one kept in
 * the address (`?section=`) so a reload or a shared link opens the same one.
 */
export function ClientDetailPage() {
  const { t } = useTranslation();
  const session = useSession();
  const params = useParams();
  const id = routeId(params.id);
  const [search, setSearch] = useSearchParams();
  const screens = Grid.useBreakpoint();
  const client = useQuery({ ...clientQuery(id ?? 0), enabled: id !== null });

  const back = (
    <Link to={CLIENT_MANAGEMENT_PATH} data-testid="client-back">
      <ArrowLeftOutlined /> {t('clients.detail.back')}
    </Link>
  );

  const missing = id === null || (client.error instanceof ApiRequestError && client.error.status === 404);
  if (missing)
    return (
      <>
        {back}
        <Card style={{ marginTop: 16 }}>
          <Empty description={t('clients.detail.notFound')} data-testid="client-not-found" />
        </Card>
      </>
    );
  if (client.isError)
    return (
      <>
        {back}
        <LoadError query={client} style={{ marginTop: 16 }} />
      </>
    );
  if (!client.data)
    return (
      <>
        {back}
        <Card style={{ marginTop: 16 }}>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      </>
    );

  const c = client.data;
  const sections = sectionsOf(c, session?.acessPermissions ?? []);
  const wanted = search.get('section');
  const active = sections.some((s) => s.key === wanted) ? wanted! : sections[0].key;

  return (
    <div data-testid="client-detail-page">
      {back}
      <PageHeading
        title={
          <Flex gap={12} align="center" wrap>
            <span data-testid="client-name">{c.companyName}</span>
            <Tag>{t(`clients.kinds.${c.kind}`)}</Tag>
            <Tag color={c.profileStatus === 'active' ? 'green' : 'default'}>
              {t(`clients.profileStatuses.${c.profileStatus}`)}
            </Tag>
          </Flex>
        }
        extra={<Typography.Text type="secondary">{c.businessId}</Typography.Text>}
      />
      <Card>
        <Tabs
          // Ten sections do not fit in one row at 1400 px (three went behind "…"): beside the
          // section on a wide screen, all in view.
          tabPosition={screens.lg ? 'left' : 'top'}
          activeKey={active}
          onChange={(key) => setSearch({ section: key }, { replace: true })}
          items={sections.map((s) => ({
            key: s.key,
            label: t(`clients.sections.${s.key}`),
            children: s.render(),
          }))}
          destroyOnHidden
          data-testid="client-sections"
        />
      </Card>
    </div>
  );
}
