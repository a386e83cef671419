import { en } from './en.js';
import { fi } from './fi.js';
import type { DigestParams } from './digest.js';

/** A mail's subject and plain text. */
export interface MailContent {
  subject: string;
  text: string;
  /** An HTML part beside the text (the alert digest's list of links). */
  html?: string;
}

/** Every mail Kulu sends, one function per kind; each language module implements all of them. */
export interface MailTemplates {
  passwordReset(p: { name: string; link: string; hours: number }): MailContent;
  activation(p: { name: string; link: string }): MailContent;
  /** To the owner of an address someone tried to register again (sign-up never says it is taken). */
  signupAttempt(p: { name: string; resetLink: string }): MailContent;
  uploadReminder(p: { name: string; month: string; operators: string[] }): MailContent;
  parseDone(p: { name: string; what: string; ok: boolean; reason: string }): MailContent;
  /** The provider converted a sign-up: the account is active, log in with the sign-up password. */
  accountActivated(p: { name: string; loginLink: string }): MailContent;
  /**
   * The provider converted a sign-up whose company has no contract in force yet (issue 37 item 19):
   * the account exists, but Kulu opens only with the contract; not "your account is activated".
   */
  accountAwaitingContract(p: { name: string; companyName: string; loginLink: string }): MailContent;
  /** To the provider's admins on a lead's reminder day. */
  leadReminder(p: {
    name: string;
    day: string;
    leads: Array<{ companyName: string; leadStatus: string | null }>;
    link: string;
  }): MailContent;
  /** To the client's admins and the provider's admins on an operator contract's end date reminder day. */
  operatorContractReminder(p: {
    name: string;
    companyName: string;
    operatorName: string;
    endDate: string | null;
  }): MailContent;
  /** A large scheduled Excel export is ready in the report archive. */
  exportReady(p: { name: string; report: string; rows: number; link: string; days: number }): MailContent;
  /** The alert digest (decision 0026): a user's new alerts in one mail. */
  alertDigest(p: DigestParams): MailContent;
}

export type MailLanguage = 'en' | 'fi';

const TEMPLATES: Record<MailLanguage, MailTemplates> = { en, fi };

/** A user's mail language from their language id (1 English, 2 Finnish; anything else English). */
export const mailLanguage = (languageId: number | null | undefined): MailLanguage =>
  languageId === 2 ? 'fi' : 'en';

/** The templates of a user's language. */
export const mailTemplates = (languageId: number | null | undefined): MailTemplates =>
  TEMPLATES[mailLanguage(languageId)];
