import type { ReactNode } from 'react';
import { DatePicker, Input } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Lang, MasterResource } from '@kulu/shared';
import { ResourceSection } from '../../components/resource/resource-section';
import { apiToday, DAY_PICKER_FORMAT, dayProps, sectionKey } from './money-api';
import './money-texts';

/**
 * One money section of a client (payments, on-demand support), declared: its shared resource
 * (the API path, sorts, columns, fields, input schema, messages), which keys are its day and its
 * amount, its texts and test ids, its day rule and the summary of the list above the table.
 */
export interface MoneySectionSpec<L> {
  resource: MasterResource;
  /** The section's texts: `<texts>.empty`, `.add`, `.addTitle`, `.editTitle`, `.deleteConfirm`. */
  texts: string;
  /** The query key's section name (`['clients', section, clientId]`). */
  section: string;
  /** Test ids: `client-<testIds.section>`, `<table>`, `<row>-add`, `<row>-form`, `<row>-date`… */
  testIds: { section: string; table: string; row: string; summary: string };
  date: {
    key: string;
    /** Spec §5: the day rule (today: the API's business day) and its message code. */
    ok: (day: string, today: string) => boolean;
    code: string;
    help?: string;
    defaultPickerValue?: () => Dayjs;
  };
  amount: {
    key: string;
    /** The message code of a value not greater than 0. */
    positiveCode: string;
    format: (v: number, lang: Lang) => string;
    suffix: string;
    maxLength: number;
  };
  summary: (list: L, t: TFunction, lang: Lang) => ReactNode;
}

/**
 * A client's money section (spec §3 Client payment, On-demand support) on the declared resource
 * screen: its rows newest first with the summary of the whole list, add / edit in a modal with a
 * day picker that keeps to the day rule, delete after a confirmation; the spec's messages and the
 * API's rule errors on their fields.
 */
export function MoneySection<L>({ clientId, spec }: { clientId: number; spec: MoneySectionSpec<L> }) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { resource, date, amount, testIds } = spec;
  const texts = spec.texts;
  return (
    <ResourceSection
      resource={resource}
      base={`/api/clients/${clientId}/${resource.path}`}
      queryKey={sectionKey(clientId, spec.section)}
      texts={{
        add: t(`${texts}.add`),
        addTitle: t(`${texts}.addTitle`),
        editTitle: t(`${texts}.editTitle`),
        empty: t(`${texts}.empty`),
        edit: t('clients.money.edit'),
        delete: t('clients.money.delete'),
        deleteConfirm: t(`${texts}.deleteConfirm`),
      }}
      testIds={{
        root: `client-${testIds.section}`,
        table: testIds.table,
        add: `${testIds.row}-add`,
        form: `${testIds.row}-form`,
        field: (key) => `${testIds.row}-${key === date.key ? 'date' : key}`,
        summary: testIds.summary,
      }}
      extras={{
        summary: (list) => spec.summary(list as L, t, lang),
        widths: { [date.key]: 160, [amount.key]: 180 },
        renderCell: {
          description: (v) => (v == null ? t('clients.money.none') : String(v)),
          [amount.key]: (v) => amount.format(Number(v), lang),
        },
        errorFields: { [date.code]: date.key, [amount.positiveCode]: amount.key },
        fields: {
          [date.key]: {
            initial: apiToday,
            item: {
              ...dayProps,
              extra: date.help ? t(date.help) : undefined,
              rules: [
                {
                  validator: async (_r, v: string | null) => {
                    if (v && !date.ok(v, apiToday())) throw new Error(t(`errors.${date.code}`));
                  },
                },
              ],
            },
            input: () => (
              <DatePicker
                style={{ width: '100%' }}
                format={DAY_PICKER_FORMAT[lang]}
                disabledDate={(d) => !date.ok(d.format('YYYY-MM-DD'), apiToday())}
                defaultPickerValue={date.defaultPickerValue?.()}
                data-testid={`${testIds.row}-date`}
              />
            ),
          },
          [amount.key]: {
            input: () => (
              <Input
                inputMode="decimal"
                suffix={amount.suffix}
                maxLength={amount.maxLength}
                data-testid={`${testIds.row}-${amount.key}`}
              />
            ),
          },
          description: {
            input: () => (
              <Input.TextArea rows={3} maxLength={500} data-testid={`${testIds.row}-description`} />
            ),
          },
        },
      }}
    />
  );
}
