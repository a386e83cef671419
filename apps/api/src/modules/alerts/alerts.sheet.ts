import {
  ALERT_RULE_LABELS,
  ALERT_SEVERITY_LABELS,
  ALERT_STATE_LABELS,
  type AlertExportQuery,
  type Lang,
} from '@kulu/shared';
import type { Db } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';
import { rowsOf, safeOrNull, safeText, type XlsxSheet } from '../../lib/xlsx/index.js';
import { alertBatches } from './alerts.service.js';

const HEADERS = {
  en: ['Month', 'Client', 'Sub-company', 'Type', 'Severity', 'Alert', 'State', 'Acknowledged', 'By', 'Note'],
  fi: [
    'Kuukausi',
    'Asiakas',
    'Tytäryhtiö',
    'Tyyppi',
    'Vakavuus',
    'Hälytys',
    'Tila',
    'Kuitattu',
    'Kuittaaja',
    'Huomautus',
  ],
} as const;
export const ALERTS_SHEET = { en: 'Alerts', fi: 'Hälytykset' } as const;

/** The alerts of the list's filters as one sheet, headers and sentences in the caller's language. */
export async function alertsSheet(db: Db, scope: Scope, q: AlertExportQuery, lang: Lang): Promise<XlsxSheet> {
  const batches = alertBatches(db, scope, q, lang);
  const cells = () =>
    rowsOf(batches, (a) => [
      a.month.slice(0, 7),
      safeText(a.clientName),
      safeOrNull(a.subCompanyName),
      ALERT_RULE_LABELS[a.rule][lang],
      ALERT_SEVERITY_LABELS[a.severity][lang],
      safeText(a.text),
      ALERT_STATE_LABELS[a.state][lang],
      a.acknowledgedAt?.slice(0, 10) ?? null,
      safeOrNull(a.acknowledgedBy),
      safeOrNull(a.note),
    ]);
  return {
    name: ALERTS_SHEET[lang],
    columns: HEADERS[lang].map((header, i) => ({ header, width: i === 5 ? 80 : i === 9 ? 40 : undefined })),
    rows: cells(),
    table: true,
  };
}
