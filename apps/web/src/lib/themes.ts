import { theme, type ThemeConfig } from 'antd';
import { DEFAULT_THEME_ID } from '@kulu/shared';

/** The ten application themes (spec §9: ids 1–10, 1 default). Names are translation keys. */
export interface AppTheme {
  id: number;
  key: string;
  colorPrimary: string;
  dark?: boolean;
  compact?: boolean;
  borderRadius?: number;
  /** Page background behind cards (light themes only). */
  colorBgLayout?: string;
}

export const APP_THEMES: readonly AppTheme[] = [
  { id: 1, key: 'kulu', colorPrimary: '#1f5fbf', colorBgLayout: '#f3f5f9' },
  { id: 2, key: 'forest', colorPrimary: '#2e7d4f', colorBgLayout: '#f2f6f3' },
  { id: 3, key: 'midnight', colorPrimary: '#4c8dff', dark: true },
  { id: 4, key: 'sunset', colorPrimary: '#d4540b', colorBgLayout: '#faf5f1', borderRadius: 10 },
  { id: 5, key: 'berry', colorPrimary: '#8a3ab9', colorBgLayout: '#f7f3fa' },
  { id: 6, key: 'graphite', colorPrimary: '#13a8a8', dark: true, borderRadius: 4 },
  { id: 7, key: 'compactTeal', colorPrimary: '#08808a', compact: true, colorBgLayout: '#f1f6f6' },
  { id: 8, key: 'nordic', colorPrimary: '#3a6b8c', borderRadius: 2, colorBgLayout: '#eef2f5' },
  { id: 9, key: 'ruby', colorPrimary: '#c41d3a', colorBgLayout: '#faf3f4' },
  { id: 10, key: 'nightCompact', colorPrimary: '#e0a526', dark: true, compact: true },
];

export const appThemeById = (id: number | null | undefined): AppTheme =>
  APP_THEMES.find((t) => t.id === id) ?? APP_THEMES[DEFAULT_THEME_ID - 1];

export function antdThemeFor(t: AppTheme): ThemeConfig {
  const algorithm = [t.dark ? theme.darkAlgorithm : theme.defaultAlgorithm];
  if (t.compact) algorithm.push(theme.compactAlgorithm);
  return {
    algorithm,
    token: {
      colorPrimary: t.colorPrimary,
      colorInfo: t.colorPrimary,
      borderRadius: t.borderRadius ?? 6,
      fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
      ...(t.colorBgLayout && !t.dark ? { colorBgLayout: t.colorBgLayout } : {}),
    },
  };
}
