import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Spin, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { echartsTheme } from '../lib/chart-theme';

type Runtime = typeof import('./echarts-runtime'); // eslint-disable-line @typescript-eslint/consistent-type-imports -- a module type for the lazy loader
type Chart = ReturnType<Runtime['echarts']['init']>;
type Option = Parameters<Chart['setOption']>[0];

let runtime: Promise<Runtime> | undefined;
/** ECharts loads once, on the first chart drawn. */
const loadRuntime = () => (runtime ??= import('./echarts-runtime'));

/** What ECharts tells of a clicked bar or slice. */
export interface ChartClick {
  dataIndex: number;
  seriesId?: string;
  data?: unknown;
}

/**
 * A small wrapper around `echarts/core` (no echarts-for-react): init on mount, setOption on
 * change, resize with its box, dispose on unmount. Its colours come from the application theme
 * (`echartsTheme`): a theme change draws the chart anew in the new theme.
 */
export function EChart({
  option,
  height = 320,
  testId,
  onClick,
}: {
  option: object;
  height?: number;
  testId?: string;
  /** A bar or slice was clicked (the pointer shows it can be). */
  onClick?: (click: ChartClick) => void;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  // A new chart instance per theme: the option effect below draws into it once it is there.
  const [instance, setInstance] = useState(0);
  const { token } = theme.useToken();
  const chartTheme = useMemo(() => echartsTheme(token), [token]);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    loadRuntime().then(
      ({ echarts }) => {
        if (disposed || !box.current) return;
        chart.current = echarts.init(box.current, chartTheme);
        observer = new ResizeObserver(() => chart.current?.resize());
        observer.observe(box.current);
        setState('ready');
        setInstance((n) => n + 1);
      },
      () => {
        runtime = undefined;
        if (!disposed) setState('failed');
      },
    );
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [chartTheme]);

  useEffect(() => {
    if (state === 'ready') chart.current?.setOption(option as Option, { notMerge: true });
  }, [option, state, instance]);

  useEffect(() => {
    const c = chart.current;
    if (state !== 'ready' || !c || !onClick) return;
    const handler = (p: ChartClick) =>
      onClick({ dataIndex: p.dataIndex, seriesId: p.seriesId, data: p.data });
    c.on('click', handler as never);
    return () => {
      c.off('click', handler as never);
    };
  }, [onClick, state, instance]);

  if (state === 'failed') return <Alert type="error" showIcon title={t('dashboards.chartFailed')} />;
  return (
    <Spin spinning={state === 'loading'}>
      <div ref={box} style={{ width: '100%', height }} data-testid={testId} />
    </Spin>
  );
}
