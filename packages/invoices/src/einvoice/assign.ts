/**
 * Which subscription each charge row of an e-invoice belongs to. Neither Finvoice nor Peppol has a
 * field for it: operators put the subscription number in the row's free text, at the start of its
 * article name, or in a text row heading the subscription's rows (finvoice/subscriptions.ts reads
 * the texts; docs/decisions/0020-finvoice.md).
 */
import { isSectionEnd, numberAndName, numberAtStart, withoutLabels } from '../finvoice/subscriptions.js';
import type { EInvoiceRow } from './model.js';

export interface Assigned {
  phoneNumber: string | null;
  userName: string;
  costCenter: string | null;
  label: string;
}

/** A row's text: its article name and free texts. */
function headingText(row: EInvoiceRow): string {
  return [row.articleName, ...row.freeTexts].filter(Boolean).join(' ');
}

/** A row without an amount: a heading or a note. */
export function isTextRow(row: EInvoiceRow): boolean {
  return row.vatExcluded === null && row.amount === null;
}

/**
 * Gives each charge row its subscription (or none: an invoice-level line), row by row in document
 * order. In order of preference: the number in the row's own free text, at the start of its article
 * name, or in the heading text row above it (which holds until the next heading, a sub-row block
 * or an "other charges" heading). Text rows and sub-row blocks give null.
 */
export class RowAssigner {
  private heading: { phoneNumber: string; userName: string; costCenter: string | null } | null = null;
  /** A subscription's free text repeats on each of its rows: each text is searched once. */
  private readonly found = new Map<string, ReturnType<typeof numberAndName>>();

  private numberIn(text: string): ReturnType<typeof numberAndName> {
    let result = this.found.get(text);
    if (result === undefined) {
      result = numberAndName(text);
      if (this.found.size < 100_000) this.found.set(text, result);
    }
    return result;
  }

  /** A user's name repeats on each of its rows: each is cleaned of labels once. */
  private readonly names = new Map<string, string>();

  private nameIn(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) {
      name = withoutLabels(text);
      if (this.names.size < 100_000) this.names.set(text, name);
    }
    return name;
  }

  assign(row: EInvoiceRow): Assigned | null {
    if (row.subBlock) {
      this.heading = null;
      return null;
    }
    if (isTextRow(row)) {
      const text = headingText(row);
      const found = numberAndName(text);
      if (found) {
        this.heading = {
          phoneNumber: found.phoneNumber,
          userName: stripCostCenter(found.userName),
          costCenter: row.accountDimension ?? costCenterIn(text),
        };
      } else if (isSectionEnd(text)) this.heading = null;
      return null;
    }
    const cost = row.accountDimension;
    for (const free of row.freeTexts) {
      const match = this.numberIn(free);
      if (match)
        return {
          phoneNumber: match.phoneNumber,
          userName: match.userName,
          costCenter: cost,
          label: row.articleName,
        };
    }
    const start = numberAtStart(row.articleName);
    if (start) {
      const name = this.nameIn(row.freeTexts.join(' ').trim());
      return { phoneNumber: start.phoneNumber, userName: name, costCenter: cost, label: start.label };
    }
    if (this.heading) {
      return {
        phoneNumber: this.heading.phoneNumber,
        userName: this.heading.userName,
        costCenter: cost ?? this.heading.costCenter,
        label: row.articleName,
      };
    }
    return { phoneNumber: null, userName: '', costCenter: cost, label: row.articleName };
  }
}

/** The subscription of each charge row of `rows` (see RowAssigner). */
export function assignRows(rows: EInvoiceRow[]): { row: EInvoiceRow; assigned: Assigned }[] {
  const assigner = new RowAssigner();
  return rows.flatMap((row) => {
    const assigned = assigner.assign(row);
    return assigned ? [{ row, assigned }] : [];
  });
}

function costCenterIn(text: string): string | null {
  const m = /kustannuspaikka:?\s+(\S+)/i.exec(text);
  return m ? m[1] : null;
}

function stripCostCenter(name: string): string {
  return name.replace(/[\s,/|\u2013-]*kustannuspaikka:?\s+\S+.*$/i, '').trim();
}
