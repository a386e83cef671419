import { useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from './form-rules';

/**
 * A report's Excel export: `run` downloads the workbook of what the filters show, `exporting` says
 * it is under way, and a failure is shown in the user's language.
 */
export function useReportExport(download: () => Promise<void>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const run = async () => {
    setExporting(true);
    try {
      await download();
    } catch (err) {
      void message.error(errorText(t, err));
    } finally {
      setExporting(false);
    }
  };
  return { exporting, run: () => void run() };
}
