import { costCenters, subCompanies, subscriptions } from '../db/schema/index.js';
import { safeOrNull, safeText, type XlsxCell } from './xlsx/index.js';

/**
 * A subscription's names on a list, as the subscription is now: selected from a query joined to
 * `subscriptions` and left-joined to `subCompanies` and `costCenters` on the subscription's ids.
 */
export const SUBSCRIPTION_NAMES = {
  phoneNumber: subscriptions.phoneNumber,
  userName: subscriptions.userName,
  subCompanyId: subscriptions.subCompanyId,
  subCompanyName: subCompanies.name,
  costCenterId: subscriptions.costCenterId,
  costCenterName: costCenters.name,
};

/** A subscription's names as a workbook row's cells, in the lists' order: user, number, sub-company, cost center. */
export const subscriptionCells = (i: {
  userName: string | null;
  phoneNumber: string;
  subCompanyName: string | null;
  costCenterName: string | null;
}): XlsxCell[] => [
  safeOrNull(i.userName),
  safeText(i.phoneNumber),
  safeOrNull(i.subCompanyName),
  safeOrNull(i.costCenterName),
];
