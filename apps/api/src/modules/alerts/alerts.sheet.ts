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
import { who } from './alert-text.js';

const HEADERS = {
  en: [
    'Month',
    'Client',
    'Sub-company',
    'Type',
    'Severity',
    'Number',
    'User',
    'Alert',
    'State',
    'Acknowledged',
    'By',
    'Note',
  ],
  fi: [
    'Kuukausi',
    'Asiakas',
    'Tytäryhtiö',
    'Tyyppi',
    'Vakavuus',
    'Numero',
    'Käyttäjä',
    'Hälytys',
    'Tila',
    'Kuitattu',
    'Kuittaaja',
    'Huomautus',
  ],
} as const;
export const ALERTS_SHEET = { en: 'Alerts', fi: 'Hälytykset' } as const;

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * A subscription's alert as its number, user and the rest of its sentence (issue 37 item 19): the
 * sentence starts with the number (`+358…`), which a sheet must not read as a formula, so as one
 * cell it was written with a quote in front that Excel showed ("'+358401234567 (…): …"). A number
 * alone is no formula and needs none; the rest starts with a word or an amount.
 */
function parts(a: { text: string; figures: Record<string, unknown> }) {
  const phone = text(a.figures.phone);
  const lead = phone ? `${who(a.figures)}: ` : null;
  if (!lead || !a.text.startsWith(lead)) return { phone, user: null, rest: a.text };
  return { phone, user: text(a.figures.userName), rest: a.text.slice(lead.length) };
}

/** The alerts of the list's filters as one sheet, headers and sentences in the caller's language. */
export async function alertsSheet(db: Db, scope: Scope, q: AlertExportQuery, lang: Lang): Promise<XlsxSheet> {
  const batches = alertBatches(db, scope, q, lang);
  const cells = () =>
    rowsOf(batches, (a) => {
      const { phone, user, rest } = parts(a);
      return [
        a.month.slice(0, 7),
        safeText(a.clientName),
        safeOrNull(a.subCompanyName),
        ALERT_RULE_LABELS[a.rule][lang],
        ALERT_SEVERITY_LABELS[a.severity][lang],
        safeOrNull(phone),
        safeOrNull(user),
        safeText(rest),
        ALERT_STATE_LABELS[a.state][lang],
        a.acknowledgedAt?.slice(0, 10) ?? null,
        safeOrNull(a.acknowledgedBy),
        safeOrNull(a.note),
      ];
    });
  return {
    name: ALERTS_SHEET[lang],
    columns: HEADERS[lang].map((header, i) => ({
      header,
      width: i === 5 ? 16 : i === 6 ? 24 : i === 7 ? 70 : i === 11 ? 40 : undefined,
    })),
    rows: cells(),
    table: true,
  };
}
