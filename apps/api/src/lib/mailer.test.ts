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
});
