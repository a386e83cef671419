import dayjs from 'dayjs';
import 'dayjs/locale/fi';
import 'dayjs/locale/en-gb';
import type { Lang } from '@kulu/shared';

/** dayjs (antd date pickers) follows the interface language. Loaded on demand, not by the login page. */
export const applyDayjsLocale = (lang: Lang): void => void dayjs.locale(lang === 'fi' ? 'fi' : 'en-gb');
