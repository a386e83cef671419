import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { NUM_FMT, safeText, writeWorkbook } from './index.js';

async function build(sheets: Parameters<typeof writeWorkbook>[1]) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => out.on('end', resolve));
  const result = await writeWorkbook(out, sheets);
  await done;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  return { wb, result };
}

describe('lib/xlsx writeWorkbook', () => {
  it('writes every sheet with its headers, values, number formats, frozen header row and autofilter', async () => {
    async function* costs() {
      yield [['Anna', 12.5]];
      yield [[safeText('=HYPERLINK("x")'), 0.1]];
    }
    const { wb, result } = await build([
      {
        name: 'Costs',
        columns: [{ header: 'User' }, { header: 'Cost (€)', numFmt: NUM_FMT.euro }],
        rows: costs(),
        table: true,
      },
      {
        name: 'A sheet name longer than thirty-one characters',
        columns: [{ header: 'N' }],
        rows: [[[1], [2]]],
      },
    ]);
    expect(result.rows).toBe(4);
    const ws = wb.getWorksheet('Costs')!;
    expect(ws.getRow(1).values).toEqual([undefined, 'User', 'Cost (€)']);
    expect(ws.getCell('A2').value).toBe('Anna');
    expect(ws.getCell('B2').value).toBe(12.5);
    expect(ws.getCell('B2').numFmt).toBe('#,##0.00 "€"');
    expect(ws.getCell('A3').value).toBe(`'=HYPERLINK("x")`);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.autoFilter).toBeTruthy();
    const second = wb.worksheets[1]!;
    expect(second.name).toBe('A sheet name longer than thirty');
    expect(second.getCell('A3').value).toBe(2);
    expect((second.views ?? []).some((v) => v.state === 'frozen')).toBe(false);
  });

  it('rejects when a row source fails, so the caller can mark its export failed', async () => {
    async function* broken(): AsyncGenerator<Array<Array<string>>> {
      yield [['ok']];
      throw new Error('query failed');
    }
    const out = new PassThrough();
    out.resume();
    await expect(
      writeWorkbook(out, [{ name: 'S', columns: [{ header: 'A' }], rows: broken() }]),
    ).rejects.toThrow('query failed');
  });
});
