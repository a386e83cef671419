import { theme, type ThemeConfig } from 'antd';
import { DEFAULT_THEME_ID } from '@kulu/shared';
import { flatten } from './contrast';

/**
 * The ten application themes (spec §9: ids 1–10, 1 default). Names are translation keys. A light
 * theme's primary reads at 4.5 on its page background and under white text; a dark theme's on its
 * dark backgrounds (antd's dark algorithm darkens it a little), under dark text.
 */
export interface AppTheme {
  id: number;
  key: string;
  colorPrimary: string;
  dark?: boolean;
  compact?: boolean;
  borderRadius?: number;
  /** Page background behind cards (light themes only). */
  colorBgLayout?: string;
  /** Text of the processing tag where the primary is too light on its own tint. */
  tagInfo?: string;
}

export const APP_THEMES: readonly AppTheme[] = [
  { id: 1, key: 'kulu', colorPrimary: '#1f5fbf', colorBgLayout: '#f3f5f9' },
  { id: 2, key: 'forest', colorPrimary: '#2e7d4f', colorBgLayout: '#f2f6f3', tagInfo: '#1e5133' },
  { id: 3, key: 'midnight', colorPrimary: '#70a4ff', dark: true },
  { id: 4, key: 'sunset', colorPrimary: '#bf4c0a', colorBgLayout: '#faf5f1', borderRadius: 10 },
  { id: 5, key: 'berry', colorPrimary: '#8a3ab9', colorBgLayout: '#f7f3fa' },
  { id: 6, key: 'graphite', colorPrimary: '#2bb1b1', dark: true, borderRadius: 4 },
  {
    id: 7,
    key: 'compactTeal',
    colorPrimary: '#07737c',
    compact: true,
    colorBgLayout: '#f1f6f6',
    tagInfo: '#055157',
  },
  {
    id: 8,
    key: 'nordic',
    colorPrimary: '#3a6b8c',
    borderRadius: 2,
    colorBgLayout: '#eef2f5',
    tagInfo: '#2e5670',
  },
  { id: 9, key: 'ruby', colorPrimary: '#c41d3a', colorBgLayout: '#faf3f4' },
  { id: 10, key: 'nightCompact', colorPrimary: '#e0a526', dark: true, compact: true },
];

export const appThemeById = (id: number | null | undefined): AppTheme =>
  APP_THEMES.find((t) => t.id === id) ?? APP_THEMES[DEFAULT_THEME_ID - 1];

/**
 * Text colours that reach WCAG AA contrast (4.5) on every background of a light or a dark theme
 * (page, card, popup): antd's defaults fall below it (45 % grey descriptions, 25 % placeholders,
 * red and green texts — `Typography` `danger` / `success`, form errors — at 3.3 and 2.1 on white).
 */
const TEXT = {
  light: {
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    colorErrorText: '#c4302b',
    colorSuccessText: '#2f7a0f',
  },
  dark: {
    colorTextTertiary: 'rgba(255, 255, 255, 0.55)',
    colorTextDescription: 'rgba(255, 255, 255, 0.55)',
    colorTextPlaceholder: 'rgba(255, 255, 255, 0.5)',
    colorErrorText: '#ec6a6c',
    colorSuccessText: '#6abe39',
  },
};

/** A badge's count (white text) on a red that reads at 4.5 (antd's #ff4d4f gives 3.3). */
const BADGE_FILL = '#c4302b';

/**
 * Tag's text colours (`<Tag color="green">` draws `green7` on `green1`, `color="success"` draws
 * `colorSuccess` on `colorSuccessBg`), each the nearest shade of antd's own that reads at 4.5 on its
 * tint; a light theme's processing tag (`colorInfo`, the primary) is set per theme (`tagInfo`).
 */
const TAG = {
  light: {
    blue7: '#0958d9',
    purple7: '#531dab',
    cyan7: '#078085',
    green7: '#30860b',
    magenta7: '#c41d7f',
    pink7: '#c41d7f',
    red7: '#cf1322',
    orange7: '#aa5606',
    yellow7: '#8a7304',
    volcano7: '#c9350c',
    geekblue7: '#1d39c4',
    lime7: '#577d04',
    gold7: '#9f6605',
    colorSuccess: '#357f11',
    colorError: '#bf3a3b',
    colorWarning: '#96680c',
  },
  dark: {
    blue7: '#3c89e8',
    purple7: '#9769d2',
    cyan7: '#33bcb7',
    green7: '#6abe39',
    magenta7: '#e0529c',
    pink7: '#e0529c',
    red7: '#e84749',
    orange7: '#e89a3c',
    yellow7: '#e8d639',
    volcano7: '#e87040',
    geekblue7: '#5b7ae2',
    lime7: '#a9d134',
    gold7: '#e8b339',
    colorSuccess: '#49aa19',
    colorError: '#e05759',
    colorWarning: '#d89614',
  },
};

/**
 * The primary of a hovered (`amount` 0.15) or pressed (0.3) control, link or button: antd lightens a
 * light theme's primary on hover (white text on it fell to 4.1–4.5, a hovered link on the page to
 * 2.6) and darkens a dark theme's when pressed (its dark text fell to 3.6). Here it moves away from
 * the page in both modes, darker in a light theme and lighter in a dark one, so whatever reads on
 * the primary or as the primary reads on its hover and press too.
 */
const stateShade = (t: AppTheme, amount: number) =>
  flatten(t.dark ? `rgba(255, 255, 255, ${amount})` : `rgba(0, 0, 0, ${amount})`, t.colorPrimary);

/**
 * antd's configuration of an application theme: its seeds, plus text colours that reach WCAG AA
 * contrast on its backgrounds (`TEXT`, `TAG`). A dark theme's primary is light enough to read as text
 * on its dark backgrounds, so its primary buttons and selected menu entry carry dark text; a light
 * theme's primary is dark enough for white text (lib/themes.test.ts checks all ten themes).
 */
export function antdThemeFor(t: AppTheme): ThemeConfig {
  const algorithm = [t.dark ? theme.darkAlgorithm : theme.defaultAlgorithm];
  if (t.compact) algorithm.push(theme.compactAlgorithm);
  const mode = t.dark ? 'dark' : 'light';
  const onPrimary = t.dark ? '#141414' : '#ffffff';
  return {
    algorithm,
    token: {
      colorPrimary: t.colorPrimary,
      colorInfo: t.colorPrimary,
      borderRadius: t.borderRadius ?? 6,
      fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
      ...(t.colorBgLayout && !t.dark ? { colorBgLayout: t.colorBgLayout } : {}),
      ...TEXT[mode],
      colorPrimaryHover: stateShade(t, 0.15),
      colorPrimaryActive: stateShade(t, 0.3),
      colorLinkHover: stateShade(t, 0.15),
      colorLinkActive: stateShade(t, 0.3),
    },
    components: {
      Button: { primaryColor: onPrimary },
      // The user's initials on the primary, as a primary button's text.
      Avatar: { colorTextLightSolid: onPrimary },
      Badge: { colorError: BADGE_FILL },
      Menu: { darkItemSelectedColor: onPrimary },
      Tag: { ...TAG[mode], ...(t.tagInfo ? { colorInfo: t.tagInfo } : {}) },
    },
  };
}
