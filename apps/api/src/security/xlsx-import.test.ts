import { describe, expect, it } from 'vitest';
import { inlineRow, repeatedPart, SHEET_HEAD, SHEET_TAIL, textPart, xlsxOf } from '../test/bomb-xlsx.js';
import { useSignedIn } from '../test/fixtures.js';
import { DEMO } from '../test/helpers.js';
import { multipart } from '../test/uploads.js';

/**
 * Issue 23, findings 1 and 2: an .xlsx given to the invoice-user import is read in the API
 * process, so what it costs must not depend on what the zip declares or on how many rows the sheet
 * has. Each file is built here; the growth of the process's resident memory is sampled during the
 * call (the old reader grew by the inflated size: +620 MB for a 1 MB file, +1.6 GB for 2.5 million
 * rows).
 */

const anna = useSignedIn(DEMO.companyAdmin);
const MB = 1024 * 1024;
/** Bound on the growth of the API process's memory while it reads one of these files. */
const BOUND_MB = 150;

async function preview(file: Buffer) {
  const m = multipart([{ name: 'users.xlsx', data: file }]);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 5);
  try {
    const res = await anna.t.inject({
      method: 'POST',
      url: '/api/invoice-users/import/preview',
      token: anna.token,
      headers: { ...m.headers, 'accept-language': 'en' },
      payload: m.payload,
    });
    sample();
    return { res, grewMb: (peak - before) / MB };
  } finally {
    clearInterval(timer);
  }
}

/** The preview refuses `file` with 400, `code` and `message`, within the memory bound. */
async function expectRefused(file: Buffer, code: string, message: string) {
  const { res, grewMb } = await preview(file);
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code, message });
  expect(grewMb).toBeLessThan(BOUND_MB);
}

const header = inlineRow(1, ['Name', 'Phone number']);

describe('invoice-user import of hostile .xlsx files', () => {
  it('refuses a sheet that declares 1,000 bytes but inflates to 256 MB, having inflated only what is allowed', async () => {
    // Valid XML all the way (comments of 1 KiB), so only the count of inflated bytes can stop it.
    const comment = `<!--${'a'.repeat(1024 - 7)}-->`;
    const sheet = repeatedPart(SHEET_HEAD + header, comment, 256 * 1024, SHEET_TAIL);
    expect(sheet.size).toBeGreaterThan(256 * MB);
    const file = xlsxOf({ sheet, sheetDeclaredSize: 1_000 });
    expect(file.length).toBeLessThan(1 * MB);

    await expectRefused(file, 'importTooLarge', 'The file is too large (at most 5 MB)');
  }, 120_000);

  it('reads the sheet of a workbook carrying a media part that inflates to 256 MB, never inflating it', async () => {
    const sheet = textPart(SHEET_HEAD + header + inlineRow(2, ['Media Maija', '040 111 9999']) + SHEET_TAIL);
    const image = repeatedPart('', Buffer.alloc(MB), 256);
    const file = xlsxOf({
      sheet,
      extra: [{ name: 'xl/media/image1.png', part: image, declaredSize: 1_000 }],
    });
    expect(file.length).toBeLessThan(1 * MB);

    const { res, grewMb } = await preview(file);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ valid: 1, sample: [{ name: 'Media Maija' }] });
    expect(grewMb).toBeLessThan(BOUND_MB);
  }, 120_000);

  it('refuses an honest sheet of 2.5 million one-cell rows at row 10,002, with little memory', async () => {
    // Rows and cells without numbers are valid (each follows the previous one): 26 bytes a row,
    // 65 MB in all, declared truthfully, in a file of a few hundred kilobytes.
    const sheet = repeatedPart(SHEET_HEAD + header, '<row><c><v>1</v></c></row>', 2_500_000, SHEET_TAIL);
    const file = xlsxOf({ sheet });
    expect(file.length).toBeLessThan(1 * MB);

    await expectRefused(file, 'importTooManyRows', 'The file has too many rows (at most 10000)');
  }, 120_000);

  it('refuses a sheet whose 10,001 rows each have a value in its last column (XFD)', async () => {
    // As cell arrays from column A, 10,001 × 16,384 cells: over a gigabyte from 400 kB of zip.
    let rows = header;
    for (let n = 2; n <= 10_001; n++) rows += `<row r="${n}"><c r="XFD${n}"><v>1</v></c></row>`;
    const file = xlsxOf({ sheet: textPart(SHEET_HEAD + rows + SHEET_TAIL) });

    await expectRefused(file, 'importTooManyColumns', 'The sheet has too many columns (at most 256)');
  }, 120_000);
});
