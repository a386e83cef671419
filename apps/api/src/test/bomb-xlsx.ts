import zlib from 'node:zlib';

/**
 * Test fixture (imported by tests only): .xlsx files built byte by byte, hostile ones included,
 * in milliseconds and a few megabytes whatever they inflate to. A part that repeats a unit many
 * times is deflated once per distinct piece, each piece ended with a full flush (byte aligned, no
 * back references across it), so the same compressed piece can be written N times in a row; a
 * final empty block ends the stream. A part may declare any size in the zip (`declaredSize`):
 * a decompression bomb says 1,000 bytes and inflates to hundreds of megabytes.
 */

export interface Part {
  deflated: Buffer;
  /** The bytes it really inflates to, and their CRC-32. */
  size: number;
  crc: number;
  /** Written as it is (method 0, stored), not deflated (method 8). */
  stored?: boolean;
}

const piece = (b: Buffer) => zlib.deflateRawSync(b, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
const FINAL = zlib.deflateRawSync(Buffer.alloc(0));

/** A part of `head`, then `unit` × `times`, then `tail`. */
export function repeatedPart(head: string, unit: string | Buffer, times: number, tail = ''): Part {
  const h = Buffer.from(head);
  const t = Buffer.from(tail);
  // Repeat the unit in blocks of about 1 MiB, each block compressed once.
  const u = typeof unit === 'string' ? Buffer.from(unit) : unit;
  const perBlock = Math.max(1, Math.min(times, Math.floor((1024 * 1024) / u.length)));
  const block = Buffer.concat(Array<Buffer>(perBlock).fill(u));
  const blocks = Math.floor(times / perBlock);
  const rest = Buffer.concat(Array<Buffer>(times - blocks * perBlock).fill(u));
  const deflatedBlock = piece(block);
  let crc = zlib.crc32(h);
  for (let i = 0; i < blocks; i++) crc = zlib.crc32(block, crc);
  crc = zlib.crc32(t, zlib.crc32(rest, crc));
  return {
    deflated: Buffer.concat([
      piece(h),
      ...Array<Buffer>(blocks).fill(deflatedBlock),
      piece(rest),
      piece(t),
      FINAL,
    ]),
    size: h.length + blocks * block.length + rest.length + t.length,
    crc,
  };
}

export const textPart = (text: string): Part => repeatedPart(text, '', 0);

/** A part stored uncompressed, as some zip writers store small entries. */
export function storedPart(text: string): Part {
  const b = Buffer.from(text);
  return { deflated: b, size: b.length, crc: zlib.crc32(b), stored: true };
}

/** A zip of the parts, in order; `declaredSize` replaces a part's true size in both its headers. */
export function zipOf(entries: { name: string; part: Part; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, part, declaredSize } of entries) {
    const n = Buffer.from(name);
    const size = declaredSize ?? part.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    const method = part.stored ? 0 : 8; // stored or deflated
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(part.crc >>> 0, 14);
    local.writeUInt32LE(part.deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(part.crc >>> 0, 16);
    central.writeUInt32LE(part.deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, part.deflated);
    centrals.push(central, n);
    offset += 30 + n.length + part.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** The head of a worksheet part, up to and including `<sheetData>`; close with SHEET_TAIL. */
export const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}"><sheetData>`;
export const SHEET_TAIL = '</sheetData></worksheet>';

/** Row `n` of inline strings (no shared strings needed), numbered as exceljs requires. */
export const inlineRow = (n: number, cells: string[]) =>
  `<row r="${n}">${cells
    .map((c, i) => `<c r="${String.fromCharCode(65 + i)}${n}" t="inlineStr"><is><t>${c}</t></is></c>`)
    .join('')}</row>`;

/**
 * A one-sheet workbook: its worksheet part, optionally shared strings and styles, and any other
 * parts (`extra`: media and the like), each possibly declaring a size it does not have.
 */
export function xlsxOf(opts: {
  sheet: Part;
  sheetDeclaredSize?: number;
  sharedStrings?: Part;
  sharedStringsDeclaredSize?: number;
  styles?: Part;
  extra?: { name: string; part: Part; declaredSize?: number }[];
}): Buffer {
  const types =
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    `<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>` +
    `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
    `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
    (opts.sharedStrings
      ? `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`
      : '') +
    (opts.styles
      ? `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>`
      : '') +
    `</Types>`;
  const rootRels =
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  const workbook =
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${REL}">` +
    `<sheets><sheet name="Users" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  const bookRels =
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
    (opts.sharedStrings
      ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`
      : '') +
    (opts.styles ? `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/>` : '') +
    `</Relationships>`;
  return zipOf([
    { name: '[Content_Types].xml', part: textPart(types) },
    { name: '_rels/.rels', part: textPart(rootRels) },
    { name: 'xl/workbook.xml', part: textPart(workbook) },
    { name: 'xl/_rels/workbook.xml.rels', part: textPart(bookRels) },
    ...(opts.styles ? [{ name: 'xl/styles.xml', part: opts.styles }] : []),
    ...(opts.sharedStrings
      ? [
          {
            name: 'xl/sharedStrings.xml',
            part: opts.sharedStrings,
            declaredSize: opts.sharedStringsDeclaredSize,
          },
        ]
      : []),
    { name: 'xl/worksheets/sheet1.xml', part: opts.sheet, declaredSize: opts.sheetDeclaredSize },
    ...(opts.extra ?? []),
  ]);
}
