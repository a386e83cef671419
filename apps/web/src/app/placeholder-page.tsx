import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../components/page-heading';

/** A page of a later release: its title and an empty state (one component for all of them). */
export function PlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading title={t(titleKey)} />
      <Card>
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('common.comingSoon')}
          data-testid="coming-soon"
          style={{ padding: '48px 0' }}
        />
      </Card>
    </>
  );
}
