import { describe, expect, it } from 'vitest';
import {
  inlineRow,
  repeatedPart,
  SHEET_HEAD,
  SHEET_TAIL,
  textPart,
  xlsxOf,
  zipOf,
} from '../../test/bomb-xlsx.js';
import { readFirstSheet, XlsxReadError } from './read.js';

const limits = { maxInflated: 64 * 1024 * 1024, maxRows: 10_001, maxColumns: 256 };
const read = (file: Buffer, over: Partial<typeof limits> = {}) =>
  readFirstSheet(file, { ...limits, ...over });
const sheetOf = (rows: string) => xlsxOf({ sheet: textPart(SHEET_HEAD + rows + SHEET_TAIL) });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'read',
    (e: unknown) => (e instanceof XlsxReadError ? e.reason : String(e)),
  );

/** What the import read from a workbook before (exceljs's whole-book reader and its cell texts). */
async function exceljsRows(file: Buffer): Promise<string[][]> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  const text = (v: unknown): string => {
    if (v == null) return '';
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (v instanceof Date) return v.toISOString().slice(0, 10);
    const o = v as { text?: unknown; richText?: { text: string }[]; result?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('');
    if (o.text !== undefined) return text(o.text);
    if (o.result !== undefined) return text(o.result);
    return '';
  };
  const rows: string[][] = [];
  book.worksheets[0].eachRow({ includeEmpty: false }, (r, n) => {
    const values = r.values as unknown[];
    const cells: string[] = [];
    for (let c = 1; c < values.length; c++) cells.push(text(values[c]));
    rows[n - 1] = cells;
  });
  return Array.from(rows, (r) => r ?? []);
}

describe('reading the first sheet of an .xlsx', () => {
  it('gives the same cell texts as the whole-workbook reader did', async () => {
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Users');
    book.addWorksheet('Second').addRow(['not this one']);
    sheet.addRow(['Name', 'Phone number', 'Joined', 'Benefit', 'Sum', 'Link']);
    sheet.addRow(['Eeva <&> "Esimerkki"', 401112222, new Date(Date.UTC(2024, 4, 31)), true, 1.5, 'x']);
    sheet.addRow([]);
    sheet.getCell('A4').value = { richText: [{ text: 'Rich ' }, { font: { bold: true }, text: 'Riikka' }] };
    sheet.getCell('B4').value = '040 111 2222';
    sheet.getCell('C4').value = { formula: 'B2*2', result: 802224444 };
    sheet.getCell('D4').value = { formula: 'TRUE()', result: true };
    sheet.getCell('F4').value = { text: 'kulu.fi', hyperlink: 'https://kulu.fi' };
    sheet.getCell('E5').value = 'gap before';
    sheet.getCell('B5').numFmt = '0.00';
    sheet.getCell('C6').value = 45000;
    sheet.getCell('C6').numFmt = 'd.m.yyyy';
    sheet.getCell('A7').value = 'Ääkköset ja rivinvaihto\nkaksi';
    sheet.getCell('H9').style = { font: { bold: true } }; // formatted but empty: no row of its own
    const file = Buffer.from(await book.xlsx.writeBuffer());
    const rows = await read(file);
    expect(rows).toEqual(await exceljsRows(file));
    expect(rows[1]).toEqual(['Eeva <&> "Esimerkki"', '401112222', '2024-05-31', 'true', '1.5', 'x']);
    expect(rows[2]).toEqual([]);
    expect(rows[3]).toEqual(['Rich Riikka', '040 111 2222', '802224444', 'true', '', 'kulu.fi']);
    expect(rows[5]).toEqual(['', '', '2023-03-15']);
    expect(rows).toHaveLength(7);
  });

  it('reads inline strings, entities, escapes, namespace prefixes and rows and cells without numbers', async () => {
    const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const sheet =
      `<?xml version="1.0"?><x:worksheet xmlns:x="${main}"><x:sheetData>` +
      `<x:row><x:c t="inlineStr"><x:is><x:t>A &amp; B &#228;&#x00E4;_x000D_</x:t></x:is></x:c>` +
      `<x:c t="inlineStr"><x:is><x:r><x:t>ru</x:t></x:r><x:r><x:t>ns</x:t></x:r><x:rPh><x:t>ignored</x:t></x:rPh></x:is></x:c></x:row>` +
      `<!-- a comment < > --><x:row><x:c t="str"><x:v><![CDATA[<cdata>]]></x:v></x:c><x:c t="b"><x:v>0</x:v></x:c><x:c t="e"><x:v>#N/A</x:v></x:c></x:row>` +
      `<x:row r="5"><x:c r="C5"><x:v>7</x:v></x:c></x:row>` +
      `</x:sheetData></x:worksheet>`;
    expect(await read(xlsxOf({ sheet: textPart(sheet) }))).toEqual([
      ['A & B ää\r', 'runs'],
      ['<cdata>', 'false', ''],
      [],
      [],
      ['', '', '7'],
    ]);
  });

  it('reads 10,001 rows (the header and 10,000) and refuses a value in row 10,002', async () => {
    const row = '<row><c><v>1</v></c></row>';
    const full = xlsxOf({ sheet: repeatedPart(SHEET_HEAD, row, 10_001, SHEET_TAIL) });
    expect(await read(full)).toHaveLength(10_001);
    // Rows past the limit without values (formatting only) are not rows of data.
    const formatted = xlsxOf({
      sheet: repeatedPart(
        SHEET_HEAD,
        row,
        10_001,
        '<row r="20000" s="1"><c r="A20000" s="1"/></row>' + SHEET_TAIL,
      ),
    });
    expect(await read(formatted)).toHaveLength(10_001);
    const over = xlsxOf({ sheet: repeatedPart(SHEET_HEAD, row, 10_002, SHEET_TAIL) });
    expect(await refusal(read(over))).toBe('tooManyRows');
    expect(await refusal(read(sheetOf('<row r="10002"><c r="A10002"><v>1</v></c></row>')))).toBe(
      'tooManyRows',
    );
  });

  it('refuses a value past the last column allowed', async () => {
    expect(await read(sheetOf('<row r="1"><c r="IV1"><v>1</v></c></row>'))).toEqual([
      [...Array(255).fill(''), '1'],
    ]);
    expect(await refusal(read(sheetOf('<row r="1"><c r="IW1"><v>1</v></c></row>')))).toBe('tooManyColumns');
  });

  it('counts the bytes really inflated, whatever the zip declares, and stops at the limit', async () => {
    const sheet = repeatedPart(SHEET_HEAD, '<!--padding-->', 100_000, SHEET_TAIL);
    expect(await read(xlsxOf({ sheet, sheetDeclaredSize: 10 }), { maxInflated: 2 * 1024 * 1024 })).toEqual(
      [],
    );
    expect(await refusal(read(xlsxOf({ sheet }), { maxInflated: 1024 * 1024 }))).toBe('tooLarge');
    // The shared strings count too, and are read only as far as the last one the sheet uses.
    const strings = repeatedPart('<sst>', '<si><t>x</t></si>', 200_000, '</sst>');
    const using = (index: number) =>
      xlsxOf({
        sheet: textPart(SHEET_HEAD + `<row r="1"><c r="A1" t="s"><v>${index}</v></c></row>` + SHEET_TAIL),
        sharedStrings: strings,
        sharedStringsDeclaredSize: 1_000,
      });
    expect(await read(using(0), { maxInflated: 1024 * 1024 })).toEqual([['x']]);
    expect(await read(using(199_999))).toEqual([['x']]);
    expect(await refusal(read(using(199_999), { maxInflated: 1024 * 1024 }))).toBe('tooLarge');
  });

  it('refuses what is not a readable workbook', async () => {
    const cases: Buffer[] = [
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]),
      // A sheet whose deflate data is damaged.
      zipOf([
        { name: 'xl/workbook.xml', part: textPart('<workbook><sheets/></workbook>') },
        {
          name: 'xl/worksheets/sheet1.xml',
          part: { deflated: Buffer.alloc(64, 0xff), size: 10, crc: 0 },
        },
      ]),
      // A document type declaration (the way to entity expansion): never in an .xlsx.
      sheetOf('<!DOCTYPE x [<!ENTITY a "aaaa">]><row><c t="inlineStr"><is><t>&a;</t></is></c></row>'),
      // A text of more than a megabyte without markup (a sheet of zeros).
      xlsxOf({ sheet: repeatedPart(SHEET_HEAD, Buffer.alloc(1024 * 1024), 2) }),
      sheetOf('<row r="0"><c><v>1</v></c></row>'),
      sheetOf('<row r="1"><c r="1A"><v>1</v></c></row>'),
    ];
    for (const file of cases) expect(await refusal(read(file))).toBe('unreadable');
  });

  it('reads nothing but the workbook, its relationships, styles, the first sheet and the strings it uses', async () => {
    // Other parts are damaged here; they are never inflated.
    const damaged = { deflated: Buffer.alloc(64, 0xff), size: 10, crc: 0 };
    const file = xlsxOf({
      sheet: textPart(SHEET_HEAD + inlineRow(1, ['only', 'this']) + SHEET_TAIL),
      extra: [
        { name: 'xl/media/image1.png', part: damaged },
        { name: 'xl/drawings/drawing1.xml', part: damaged },
        { name: 'xl/worksheets/sheet2.xml', part: damaged },
        { name: 'docProps/core.xml', part: damaged },
      ],
    });
    expect(await read(file)).toEqual([['only', 'this']]);
  });
});
