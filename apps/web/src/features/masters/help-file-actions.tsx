import { IconButton } from '../../components/icon-button';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useDownload } from '../../lib/use-download';
import { downloadFile, helpFileUrl, type Row } from './api';

/** A help file row: download the file (with the bearer token). */
export function HelpFileRowActions({ row }: { row: Row }) {
  const { t } = useTranslation();
  const file = useDownload<true>();
  return (
    <IconButton
      label={t('masters.help.download')}
      size="small"
      icon={<DownloadOutlined />}
      loading={file.busy !== null}
      onClick={() => file.run(true, () => downloadFile(helpFileUrl(row.id), String(row.fileName ?? 'help')))}
    />
  );
}
