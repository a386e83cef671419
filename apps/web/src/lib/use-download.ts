import { useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from './form-rules';

/**
 * Downloads started from buttons (a report's export, a row's file): `run(key, download)` starts
 * one, `busy` is the key of the one under way (null when none, e.g. for a row's loading button),
 * and a failure is shown in the user's language.
 */
export function useDownload<K>() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<K | null>(null);
  const run = async (key: K, download: () => Promise<void>) => {
    setBusy(key);
    try {
      await download();
    } catch (err) {
      void message.error(errorText(t, err));
    } finally {
      setBusy(null);
    }
  };
  return { busy, run: (key: K, download: () => Promise<void>) => void run(key, download) };
}
