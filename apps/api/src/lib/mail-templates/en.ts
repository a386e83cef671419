import { message } from '@kulu/shared';
import { digestMail } from './digest.js';
import type { MailTemplates } from './index.js';

/** English mail texts. */
export const en: MailTemplates = {
  passwordReset: ({ name, link, hours }) => ({
    subject: 'Kulu: reset your password',
    text: `Hello ${name},\n\nreset your password with this link (valid for ${hours} hours, usable once):\n${link}\n\nIf you did not ask for a reset, you can ignore this mail.`,
  }),
  activation: ({ name, link }) => ({
    subject: 'Kulu: activate your account',
    text: `Hello ${name},\n\nan account has been created for you in Kulu. Set your password with this link:\n${link}`,
  }),
  signupAttempt: ({ name, resetLink }) => ({
    subject: 'Kulu: someone tried to sign up with your address',
    text: `Hello ${name},\n\nsomeone tried to sign up for Kulu with your email address, which already has an account. No new account was created.\n\nIf it was you and you have forgotten your password, ask for a new one here:\n${resetLink}\n\nIf it was not you, you can ignore this mail.\n\nKulu`,
  }),
  uploadReminder: ({ name, month, operators }) => ({
    subject: `Kulu: ${message('noUploadsThisMonth', 'en')} (${month})`,
    text: `Hello ${name},\n\n${message('noUploadsThisMonth', 'en')} (${month}): ${operators.join(', ')}.\nPlease upload the invoices in Kulu under Upload Invoice.\n\nKulu`,
  }),
  parseDone: ({ name, what, ok, reason }) => ({
    subject: 'Kulu: invoice parsing is done',
    text: `Hello ${name},\n\nthe previous invoice parse is done: ${what} ${ok ? 'was uploaded successfully' : `failed (${reason})`}.\nYou can now upload your invoices again.\n\nKulu`,
  }),
  accountActivated: ({ name, loginLink }) => ({
    subject: 'Kulu: your account is active',
    text: `Hello ${name},\n\nyour Kulu account has been activated. Log in with the email address and password you signed up with:\n${loginLink}\n\nKulu`,
  }),
  accountAwaitingContract: ({ name, companyName, loginLink }) => ({
    subject: 'Kulu: your account is ready',
    text: `Hello ${name},\n\nyour Kulu account for ${companyName} is ready. Kulu's reports and figures open once your company's contract with the service provider is in force. Until then you can log in with the email address and password you signed up with and update your profile:\n${loginLink}\n\nKulu`,
  }),
  leadReminder: ({ name, day, leads, link }) => ({
    subject: `Kulu: lead reminders for ${day}`,
    text: `Hello ${name},\n\nthese leads have a reminder today (${day}):\n${leads
      .map((l) => `- ${l.companyName}${l.leadStatus ? ` (${l.leadStatus})` : ''}`)
      .join('\n')}\n\nClient Management: ${link}\n\nKulu`,
  }),
  operatorContractReminder: ({ name, companyName, operatorName, endDate }) => ({
    subject: `Kulu: the ${operatorName} contract of ${companyName} is ending`,
    text: `Hello ${name},\n\nthis is the contract end date reminder of ${companyName}'s operator contract with ${operatorName}: the contract ends ${endDate ?? '(no end date)'}.\nSee the operator contract details in Kulu.\n\nKulu`,
  }),
  exportReady: ({ name, report, rows, link, days }) => ({
    subject: `Kulu: your export "${report}" is ready`,
    text: `Hello ${name},\n\nthe Excel export "${report}" (${rows} rows) is ready. Download it under Reports > Downloads:\n${link}\n\nThe file is kept for ${days} days.\n\nKulu`,
  }),
  alertDigest: (p) =>
    digestMail(
      'en',
      {
        subject: (n) => `Kulu: ${n} new alert${n === 1 ? '' : 's'}`,
        hello: (name) => `Hello ${name},`,
        intro: 'these alerts are new in Kulu, the most severe first:',
        more: (n) => `… and ${n} more on the Alerts page.`,
        all: 'All alerts',
        when: {
          immediate: 'You get this digest after each invoice that raises alerts.',
          daily: 'You get this digest once a day when there are new alerts.',
        },
        change: 'Change this in your profile',
      },
      p,
    ),
};
