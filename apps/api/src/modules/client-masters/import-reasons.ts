import { FIELD_MESSAGES, type Lang } from '@kulu/shared';

/*
 * The import's columns and its reasons for refusing a row, in both languages. Only the API needs
 * them (the preview answers the reasons as texts), so they stay out of the web's shared bundle.
 */

/**
 * The columns of an import file and the headers each is recognised by (English and Finnish,
 * case and spaces ignored). Name and phone number are required.
 */
export const IMPORT_COLUMNS = {
  name: ['name', 'user', 'username', 'user name', 'nimi', 'käyttäjä', 'käyttäjän nimi'],
  phoneNumber: [
    'phone number',
    'phone',
    'number',
    'mobile',
    'puhelinnumero',
    'numero',
    'liittymä',
    'puhelin',
  ],
  email: ['email', 'e-mail', 'sähköposti', 'sähköpostiosoite'],
  subCompany: ['sub-company', 'sub company', 'subcompany', 'tytäryhtiö', 'alayhtiö'],
  costCenter: ['cost center', 'cost centre', 'cost-center', 'kustannuspaikka'],
  mobileBenefit: ['mobile benefit', 'puhelinetu'],
  fiveGPlan: ['5g plan', '5g', '5g-liittymä', '5g liittymä'],
} as const;
export type ImportColumn = keyof typeof IMPORT_COLUMNS;

/** The import columns' names as reasons name them. */
export const IMPORT_COLUMN_LABELS: Record<ImportColumn, { en: string; fi: string }> = {
  name: { en: 'Name', fi: 'Nimi' },
  phoneNumber: { en: 'Phone number', fi: 'Puhelinnumero' },
  email: { en: 'Email', fi: 'Sähköposti' },
  subCompany: { en: 'Sub-company', fi: 'Tytäryhtiö' },
  costCenter: { en: 'Cost center', fi: 'Kustannuspaikka' },
  mobileBenefit: { en: 'Mobile benefit', fi: 'Puhelinetu' },
  fiveGPlan: { en: '5G plan', fi: '5G-liittymä' },
};

/** Why a row of an import is refused; `{name}` is a column label, `{value}` the cell, `{row}` a row. */
export const IMPORT_REASONS = {
  ...FIELD_MESSAGES,
  unknownSubCompany: {
    en: 'Sub-company "{value}" does not exist',
    fi: 'Tytäryhtiötä "{value}" ei ole olemassa',
  },
  unknownCostCenter: {
    en: 'Cost center "{value}" does not exist',
    fi: 'Kustannuspaikkaa "{value}" ei ole olemassa',
  },
  costCenterOfOtherSubCompany: {
    en: 'Cost center "{value}" belongs to another sub-company',
    fi: 'Kustannuspaikka "{value}" kuuluu toiseen tytäryhtiöön',
  },
  outsideScope: {
    en: '{name} "{value}" is outside your sub-companies or cost centers',
    fi: '{name} "{value}" ei kuulu tytäryhtiöihisi tai kustannuspaikkoihisi',
  },
  duplicateInFile: {
    en: 'The phone number is also on row {row}',
    fi: 'Puhelinnumero on myös rivillä {row}',
  },
  phoneOfHiddenUser: {
    en: 'The phone number belongs to a user outside your sub-companies',
    fi: 'Puhelinnumero kuuluu käyttäjälle, joka ei kuulu tytäryhtiöihisi',
  },
} as const;
export type ImportReason = keyof typeof IMPORT_REASONS;

export function importReason(
  reason: ImportReason,
  lang: Lang,
  params: { column?: ImportColumn; value?: string; row?: number } = {},
): string {
  return IMPORT_REASONS[reason][lang]
    .replace('{name}', params.column ? IMPORT_COLUMN_LABELS[params.column][lang] : '')
    .replace('{value}', params.value ?? '')
    .replace('{row}', String(params.row ?? ''));
}
