import { useState } from 'react';
import { App } from 'antd';
import { IconButton } from '../../components/icon-button';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/form-rules';
import { downloadFile, helpFileUrl, type Row } from './api';

/** A help file row: download the file (with the bearer token). */
export function HelpFileRowActions({ row }: { row: Row }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(helpFileUrl(row.id), String(row.fileName ?? 'help'));
    } catch (err) {
      void message.error(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <IconButton
      label={t('masters.help.download')}
      size="small"
      icon={<DownloadOutlined />}
      loading={busy}
      onClick={() => void download()}
    />
  );
}
