import { Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@kulu/shared';
import { formatDate, NONE, orNone } from '../../lib/format';
import { currentLang } from '../../lib/i18n';

type Contract = Profile['operatorContracts'][number];

/** Operator contract details of the user's company (spec §3). */
export function OperatorContractsCard({ contracts }: { contracts: Contract[] }) {
  const { t } = useTranslation();
  const lang = currentLang();
  return (
    <Table<Contract>
      rowKey="operatorId"
      dataSource={contracts}
      pagination={false}
      size="middle"
      scroll={{ x: 720 }}
      locale={{ emptyText: t('profile.contracts.empty') }}
      columns={[
        { title: t('profile.contracts.operator'), dataIndex: 'operatorName' },
        {
          title: t('profile.contracts.salesContact'),
          dataIndex: 'salesContactName',
          render: orNone,
        },
        {
          title: t('profile.contracts.start'),
          dataIndex: 'contractStartDate',
          render: (v: string | null) => formatDate(v, lang) || NONE,
        },
        {
          title: t('profile.contracts.end'),
          dataIndex: 'contractEndDate',
          render: (v: string | null) => formatDate(v, lang) || NONE,
        },
        {
          title: t('profile.contracts.reminder'),
          dataIndex: 'uploadInvoiceReminder',
          render: (on: boolean) => (
            <Tag color={on ? 'blue' : 'default'}>{on ? t('common.yes') : t('common.no')}</Tag>
          ),
        },
      ]}
    />
  );
}
