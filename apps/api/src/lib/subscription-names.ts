import { costCenters, subCompanies, subscriptions } from '../db/schema/index.js';

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
