import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api';

/** The global loading indicator (spec §7): a thin bar on top while any request runs. */
export function TopProgressBar() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(api.inFlight() > 0);
  useEffect(() => {
    // Short requests should not flash the bar.
    let timer: number | undefined;
    const off = api.onInFlightChange((n) => {
      window.clearTimeout(timer);
      if (n > 0) timer = window.setTimeout(() => setBusy(true), 120);
      else setBusy(false);
    });
    return () => {
      window.clearTimeout(timer);
      off();
    };
  }, []);
  return (
    <div
      className={busy ? 'top-progress top-progress-active' : 'top-progress'}
      role="progressbar"
      aria-label={t('common.loading')}
      aria-busy={busy}
      aria-hidden={!busy}
      data-testid="global-loading"
    />
  );
}
