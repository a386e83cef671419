/**
 * `npm run invoice -- parse FILE` prints the structured invoice of a PDF, a Finvoice or a Peppol BIS 3
 * file (judged by content: src/file.ts sniffInvoiceFormat) as JSON on stdout.
 * `npm run invoice -- generate --operator elisa --subscriptions 500 --out file.pdf [--seed N]
 *    [--page-size A4|LETTER|LEGAL|B5|A5] [--font Helvetica|Times-Roman|Courier|file.ttf] [--font-size N]
 *    [--date yyyy-mm-dd] [--buyer-name NAME] [--business-id 1234567-8|none] [--expected file.json]` writes an
 *    invoice PDF (and the JSON parsing must give); `--business-id none` prints no Y-tunnus.
 *    With `--format finvoice [--version 1.3|2.0|2.01|3.0] [--envelope] [--charset UTF-8|ISO-8859-15]
 *    [--credit-note] [--row-style freeText|articleName|heading]` it writes a Finvoice e-invoice instead;
 *    with `--format peppol [--credit-note] [--row-style note|itemName] [--invoice-charges] [--frame]` a
 *    Peppol BIS Billing 3.0 (UBL 2.1) Invoice or CreditNote.
 * Errors go to stderr with a non-zero exit code (1: bad input file, 2: usage).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { InvoiceError } from './errors.js';
import { parseInvoiceFile } from './file.js';
import { writeIndentedJson } from './indented-json.js';
import type { ParsedInvoice } from './types.js';

// The generator (pdfkit) loads only for `generate`, and the PDF reader (MuPDF) only for a PDF:
// `parse` of an e-invoice (Finvoice or Peppol) starts without either.
const usage = async (): Promise<string> => {
  const { PAGE_SIZES, PRINT_LAYOUTS } = await loadGenerator();
  return `Usage:
  npm run invoice -- parse FILE                  (a PDF, a Finvoice or a Peppol XML file, judged by its content)
  npm run invoice -- generate --operator ${Object.keys(PRINT_LAYOUTS).join('|')} --subscriptions N --out FILE
      [--seed N] [--date YYYY-MM-DD] [--buyer-name NAME] [--business-id 1234567-8|none] [--expected FILE.json]
      PDF (default, --format pdf):
      [--page-size ${Object.keys(PAGE_SIZES).join('|')}] [--font NAME|FILE.ttf] [--font-size N]
      Finvoice e-invoice (--format finvoice):
      [--version ${FINVOICE_VERSIONS.join('|')}] [--envelope] [--charset ${CHARSETS.join('|')}] [--credit-note]
      [--row-style ${ROW_STYLES.join('|')}] (default: the operator's own)
      Peppol BIS Billing 3.0 e-invoice (--format peppol):
      [--credit-note] [--row-style ${PEPPOL_ROW_STYLES.join('|')}] (default: the operator's own)
      [--invoice-charges] (invoice-level lines as AllowanceCharge) [--frame] (SBDH transport frame)`;
};

async function loadGenerator() {
  const [{ generateInvoice, PAGE_SIZES }, { PRINT_LAYOUTS }] = await Promise.all([
    import('./generator/generate.js'),
    import('./generator/layouts.js'),
  ]);
  return { generateInvoice, PAGE_SIZES, PRINT_LAYOUTS };
}

const FINVOICE_VERSIONS = ['1.3', '2.0', '2.01', '3.0'] as const;
const CHARSETS = ['UTF-8', 'ISO-8859-15'] as const;
const ROW_STYLES = ['freeText', 'articleName', 'heading'] as const;
const PEPPOL_ROW_STYLES = ['note', 'itemName'] as const;

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  name: string,
): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!found) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return found;
}

class UsageError extends Error {}

async function parseCommand(args: string[]): Promise<void> {
  if (args.length !== 1)
    throw new UsageError('parse takes exactly one file (a PDF or an e-invoice XML file)');
  let bytes: Uint8Array;
  try {
    // a view of the file's own buffer: no second copy of it; read in one call (fs/promises reads
    // a large file 512 KiB at a time)
    const file = readFileSync(args[0]);
    bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  } catch (err) {
    throw new InvoiceError('unknown_file_type', `cannot read ${args[0]}: ${(err as Error).message}`);
  }
  const { invoice } = await parseInvoiceFile(bytes);
  writeIndentedJson(invoice, (text) => process.stdout.write(text));
}

function positiveInt(value: string | undefined, name: string, fallback?: number): number {
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`--${name} is required`);
  }
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`--${name} must be a non-negative integer, got "${value}"`);
  return n;
}

async function generateCommand(args: string[]): Promise<void> {
  const { generateInvoice, PAGE_SIZES, PRINT_LAYOUTS } = await loadGenerator();
  const { values, positionals } = parseArgs({
    args,
    options: {
      operator: { type: 'string' },
      subscriptions: { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string' },
      'page-size': { type: 'string' },
      font: { type: 'string' },
      'font-size': { type: 'string' },
      date: { type: 'string' },
      'buyer-name': { type: 'string' },
      'business-id': { type: 'string' },
      expected: { type: 'string' },
      format: { type: 'string' },
      version: { type: 'string' },
      envelope: { type: 'boolean' },
      charset: { type: 'string' },
      'credit-note': { type: 'boolean' },
      'row-style': { type: 'string' },
      'invoice-charges': { type: 'boolean' },
      frame: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (!values.operator) throw new UsageError('--operator is required');
  if (!PRINT_LAYOUTS[values.operator.toLowerCase()]) {
    throw new UsageError(
      `unknown operator "${values.operator}" (known: ${Object.keys(PRINT_LAYOUTS).join(', ')})`,
    );
  }
  if (!values.out) throw new UsageError('--out is required');
  const files = { out: values.out, expected: values.expected };
  const subscriptions = positiveInt(values.subscriptions, 'subscriptions');
  if (subscriptions < 1) throw new UsageError('--subscriptions must be at least 1');
  const pageSize = values['page-size']?.toUpperCase();
  if (pageSize && !(pageSize in PAGE_SIZES)) {
    throw new UsageError(
      `unknown page size "${values['page-size']}" (known: ${Object.keys(PAGE_SIZES).join(', ')})`,
    );
  }
  if (values.date && !/^\d{4}-\d{2}-\d{2}$/.test(values.date))
    throw new UsageError('--date must be YYYY-MM-DD');
  const fontSize = values['font-size'] === undefined ? undefined : Number(values['font-size']);
  if (fontSize !== undefined && !(fontSize >= 5 && fontSize <= 20))
    throw new UsageError('--font-size must be 5…20');
  const businessId = values['business-id'];
  if (businessId !== undefined && businessId !== 'none' && !/^\d{7}-\d$/.test(businessId))
    throw new UsageError('--business-id must be 1234567-8 or none');
  if (values['buyer-name'] !== undefined && businessId === undefined)
    throw new UsageError('--buyer-name needs --business-id');
  const buyer =
    businessId === undefined
      ? undefined
      : { name: values['buyer-name'], businessId: businessId === 'none' ? null : businessId };
  const format = oneOf(values.format, ['pdf', 'finvoice', 'peppol'] as const, 'format') ?? 'pdf';
  const OPTIONS_OF = {
    pdf: ['page-size', 'font', 'font-size'],
    finvoice: ['version', 'envelope', 'charset', 'credit-note', 'row-style'],
    peppol: ['credit-note', 'row-style', 'invoice-charges', 'frame'],
  } as const;
  const formatOnly = new Set(Object.values(OPTIONS_OF).flat());
  for (const name of formatOnly) {
    if (values[name] !== undefined && !(OPTIONS_OF[format] as readonly string[]).includes(name))
      throw new UsageError(`--${name} does not apply to --format ${format}`);
  }
  const seed = positiveInt(values.seed, 'seed', 1);
  if (format === 'peppol') {
    const { generatePeppol } = await import('./generator/peppol.js');
    const generated = generatePeppol({
      operator: values.operator,
      subscriptions,
      seed,
      invoiceDate: values.date,
      buyer,
      creditNote: values['credit-note'],
      rowStyle: oneOf(values['row-style'], PEPPOL_ROW_STYLES, 'row-style'),
      invoiceCharges: values['invoice-charges'],
      frame: values.frame,
    });
    const { layout } = generated;
    await writeGenerated(
      files,
      generated.xml,
      generated.expected,
      `${layout.operator} Peppol BIS 3 ${layout.creditNote ? 'credit note' : 'invoice'} ` +
        `${generated.expected.invoiceNumber}, ${subscriptions} subscriptions, ${layout.rowStyle} lines` +
        `${layout.invoiceCharges ? ', invoice-level allowances and charges' : ''}${layout.frame ? ', SBDH frame' : ''}`,
    );
    return;
  }
  if (format === 'finvoice') {
    const { generateFinvoice } = await import('./generator/finvoice.js');
    const generated = generateFinvoice({
      operator: values.operator,
      subscriptions,
      seed,
      invoiceDate: values.date,
      buyer,
      version: oneOf(values.version, FINVOICE_VERSIONS, 'version'),
      envelope: values.envelope,
      charset: oneOf(values.charset, CHARSETS, 'charset'),
      creditNote: values['credit-note'],
      rowStyle: oneOf(values['row-style'], ROW_STYLES, 'row-style'),
    });
    const { layout } = generated;
    await writeGenerated(
      files,
      generated.xml,
      generated.expected,
      `${layout.operator} Finvoice ${layout.version} ${layout.creditNote ? 'credit note' : 'invoice'} ` +
        `${generated.expected.invoiceNumber}, ${subscriptions} subscriptions, ${layout.charset}` +
        `${layout.envelope ? ', SOAP envelope' : ''}, ${layout.rowStyle} rows`,
    );
    return;
  }
  const generated = await generateInvoice({
    operator: values.operator,
    subscriptions,
    seed,
    pageSize: pageSize as keyof typeof PAGE_SIZES | undefined,
    font: values.font,
    fontSize,
    invoiceDate: values.date,
    buyer,
  });
  await writeGenerated(
    files,
    generated.pdf,
    generated.expected,
    `${generated.expected.operator} invoice ${generated.expected.invoiceNumber}, ` +
      `${subscriptions} subscriptions, ${generated.pages} pages`,
  );
}

/** Writes a generated file (and with --expected the JSON parsing it must give) and says what it wrote. */
async function writeGenerated(
  files: { out: string; expected?: string },
  bytes: Uint8Array,
  expected: ParsedInvoice,
  what: string,
): Promise<void> {
  await writeFile(files.out, bytes);
  if (files.expected) await writeFile(files.expected, `${JSON.stringify(expected, null, 2)}\n`);
  process.stderr.write(
    `wrote ${files.out}: ${what}, ${bytes.length} bytes, total ${expected.totalInclVat.toFixed(2)} EUR incl. VAT\n`,
  );
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'parse') await parseCommand(rest);
    else if (command === 'generate') await generateCommand(rest);
    else if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      process.stderr.write(`${await usage()}\n`);
      return command === undefined ? 2 : 0;
    } else throw new UsageError(`unknown command "${command}"`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`error: ${(err as Error).message}\n\n${await usage()}\n`);
      return 2;
    }
    if (err instanceof InvoiceError) {
      process.stderr.write(`error: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
