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
 * DATA_DIR/outbox, so that a demo user can still follow reset and activation links. The mails carry
 * working reset links: the outbox is the server user's alone (directory 700, files 600, whatever
 * the umask; a directory made before with looser rights is tightened), issue 37 item 7.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; outboxDir: string }): Mailer {
  const transport = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: opts.from, ...mail });
      if (opts.smtpUrl) return;
      await fs.mkdir(opts.outboxDir, { recursive: true, mode: 0o700 });
      await fs.chmod(opts.outboxDir, 0o700);
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`;
      const file = path.join(opts.outboxDir, name);
      // Created with no rights for others (the mode counts at creation only; `wx`: never an existing file).
      await fs.writeFile(file, (info as unknown as { message: Buffer }).message, { mode: 0o600, flag: 'wx' });
      await fs.chmod(file, 0o600);
    },
  };
}
