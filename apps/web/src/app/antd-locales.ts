import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import fiFI from 'antd/es/locale/fi_FI';
import type { Lang } from '@kulu/shared';

/**
 * antd's Finnish locale completed: as shipped it leaves the page-size changer's screen-reader label
 * in English ("Page Size"), the quick jump's confirmation in Croatian ("Potvrdite"), the week
 * picker's label out (English) and a typo ("Valise aika").
 */
const FI: Locale = {
  ...fiFI,
  Pagination: { ...fiFI.Pagination, page_size: 'Sivun koko', jump_to_confirm: 'vahvista' },
  DatePicker: fiFI.DatePicker && {
    ...fiFI.DatePicker,
    lang: { ...fiFI.DatePicker.lang, timeSelect: 'Valitse aika', weekSelect: 'Valitse viikko' },
  },
  Calendar: fiFI.Calendar && {
    ...fiFI.Calendar,
    lang: { ...fiFI.Calendar.lang, timeSelect: 'Valitse aika', weekSelect: 'Valitse viikko' },
  },
};

/** antd's texts (screen-reader labels, pagination, pickers, modals) in the interface language. */
export const antdLocale = (lang: Lang): Locale => (lang === 'fi' ? FI : enUS);
