import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise each mail is written as an .eml file under
 * DATA_DIR/outbox, so that a demo user can still follow reset and activation links.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; outboxDir: string }): Mailer {
  const transport = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: opts.from, ...mail });
      if (opts.smtpUrl) return;
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`;
      await fs.writeFile(path.join(opts.outboxDir, name), (info as unknown as { message: Buffer }).message);
    },
  };
}
