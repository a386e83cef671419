import { useTranslation } from 'react-i18next';
import { apiUrl } from '../lib/api-base';

/**
 * AGPL §13: every page offers Kulu's source to its user. The server answers `/api/source` with
 * its own source archive, or redirects to SOURCE_URL when the operator of the service set one.
 */
export function SourceLink() {
  const { t } = useTranslation();
  return (
    <a href={apiUrl('/api/source')} className="source-link" data-testid="source-link">
      {t('shell.source')}
    </a>
  );
}
