import dayjs from 'dayjs';
import 'dayjs/locale/fi';
import 'dayjs/locale/en-gb';
// The spec registers the locale data of English and French beside the app's languages: French
// dates, months and weekdays are there for whatever is shown in French (the texts themselves are
// loaded per language, lib/i18n.ts).
import 'dayjs/locale/fr';
import type { Lang } from '@kulu/shared';

/** The dayjs locales registered: the interface languages' and French. */
export const REGISTERED_LOCALES = ['en-gb', 'fi', 'fr'] as const;

/** dayjs (antd date pickers) follows the interface language. Loaded on demand, not by the login page. */
export const applyDayjsLocale = (lang: Lang): void => void dayjs.locale(lang === 'fi' ? 'fi' : 'en-gb');
