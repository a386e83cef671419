import { ALERT_SEVERITY_LABELS, type AlertSeverity } from '@kulu/shared';
import type { MailContent, MailLanguage } from './index.js';

/** One alert of a digest mail: its sentence (alert-text.ts) and the page it opens. */
export interface DigestLine {
  severity: AlertSeverity;
  text: string;
  /** The client's name, for provider users (who see many clients); null for company users. */
  client: string | null;
  link: string;
}

export interface DigestParams {
  name: string;
  /** 'immediate' or 'daily': what the mail says about when it comes. */
  mode: 'immediate' | 'daily';
  lines: DigestLine[];
  /** Open alerts beyond `lines`. */
  more: number;
  alertsLink: string;
  profileLink: string;
}

/** A language's words of the digest mail. */
export interface DigestWords {
  subject(count: number): string;
  hello(name: string): string;
  intro: string;
  more(n: number): string;
  all: string;
  when: Record<DigestParams['mode'], string>;
  change: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The alert digest (decision 0026) in plain text and HTML: the listed alerts most severe first,
 * "and N more" with the Alerts page, and where to change or stop the digest. Everything from the
 * data (names, sentences, links) is escaped in the HTML.
 */
export function digestMail(lang: MailLanguage, w: DigestWords, p: DigestParams): MailContent {
  const label = (l: DigestLine) =>
    `${ALERT_SEVERITY_LABELS[l.severity][lang]}: ${l.client ? `${l.client}: ` : ''}${l.text}`;
  const text = [
    `${w.hello(p.name)}\n\n${w.intro}\n`,
    ...p.lines.map((l) => `- ${label(l)}\n  ${l.link}`),
    ...(p.more > 0 ? [`\n${w.more(p.more)}`] : []),
    `\n${w.all}: ${p.alertsLink}`,
    `\n${w.when[p.mode]} ${w.change}: ${p.profileLink}\n\nKulu`,
  ].join('\n');
  const a = (href: string, body: string) => `<a href="${escapeHtml(href)}">${escapeHtml(body)}</a>`;
  const html = [
    `<p>${escapeHtml(w.hello(p.name))}</p>`,
    `<p>${escapeHtml(w.intro)}</p>`,
    `<ul>${p.lines.map((l) => `<li>${a(l.link, label(l))}</li>`).join('')}</ul>`,
    p.more > 0 ? `<p>${escapeHtml(w.more(p.more))}</p>` : '',
    `<p>${a(p.alertsLink, w.all)}</p>`,
    `<p>${escapeHtml(w.when[p.mode])} ${a(p.profileLink, w.change)}.</p>`,
    '<p>Kulu</p>',
  ].join('\n');
  return { subject: w.subject(p.lines.length + p.more), text, html };
}
