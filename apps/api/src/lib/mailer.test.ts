import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMailer } from './mailer.js';

describe('mailer without SMTP', () => {
  it('writes each mail as an .eml file to the outbox', async () => {
    const outboxDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-outbox-')), 'outbox');
    const mailer = createMailer({ from: 'Kulu <no-reply@kulu.fi>', outboxDir });
    await mailer.send({
      to: 'anna@example.fi',
      subject: 'Salasanan palautus',
      text: 'Linkki: http://x/#/reset-password?token=abc',
    });
    const files = fs.readdirSync(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = fs.readFileSync(path.join(outboxDir, files[0]), 'utf8');
    expect(eml).toContain('To: anna@example.fi');
    expect(eml).toContain('reset-password?token=abc');
    fs.rmSync(path.dirname(outboxDir), { recursive: true });
  });

  it('keeps the outbox to the server’s user: directory 700, mails 600, even under umask 000 and in a directory made looser before', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-outbox-'));
    const outboxDir = path.join(root, 'outbox');
    fs.mkdirSync(outboxDir, { mode: 0o777 });
    fs.chmodSync(outboxDir, 0o777);
    const umask = process.umask(0);
    try {
      const mailer = createMailer({ from: 'Kulu <no-reply@kulu.fi>', outboxDir });
      await mailer.send({ to: 'anna@example.fi', subject: 'Reset', text: 'reset-password?token=abc' });
      await mailer.send({ to: 'anna@example.fi', subject: 'Reset', text: 'reset-password?token=def' });
    } finally {
      process.umask(umask);
    }
    expect(fs.statSync(outboxDir).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(outboxDir);
    expect(files).toHaveLength(2);
    for (const f of files) expect(fs.statSync(path.join(outboxDir, f)).mode & 0o777, f).toBe(0o600);
    fs.rmSync(root, { recursive: true });
  });
});
