export type * from './types.js';
export * from './errors.js';
export * from './finnish.js';
export { boundText, checkTextBounds, TEXT_LIMITS, TextTooLongError } from './limits.js';
export { classifyLine, regionOf, type Classification } from './vocabulary.js';
export { extractText, looksLikePdf, type ExtractOptions } from './text/extract.js';
export { buildLines } from './text/layout.js';
export type { OperatorParser } from './operators/types.js';
export { createLayoutParser, type LayoutConfig } from './operators/core.js';
export {
  DETECTION_THRESHOLD,
  detectOperator,
  getOperator,
  operators,
  parseDocument,
  parseInvoice,
  registerOperator,
} from './registry.js';
export {
  generateImageOnlyPdf,
  generateInvoice,
  generatePlainPdf,
  PAGE_SIZES,
  STANDARD_FONTS,
  type GenerateOptions,
  type GeneratedInvoice,
  type PageSizeName,
} from './generator/generate.js';
export { parseInvoiceFile, sniffInvoiceFormat, type InvoiceFileFormat } from './file.js';
export {
  FINVOICE_VERSIONS,
  MAX_FINVOICE_ROWS,
  OPERATOR_BUSINESS_IDS,
  parseFinvoice,
  type FinvoiceVersion,
} from './finvoice/parse.js';
export { MAX_XML_BYTES, MAX_XML_DEPTH } from './finvoice/xml.js';
export {
  FINVOICE_SELLERS,
  generateFinvoice,
  type FinvoiceCharset,
  type FinvoiceGeneratorVersion,
  type FinvoiceOptions,
  type FinvoiceRowStyle,
  type GeneratedFinvoice,
} from './generator/finvoice.js';
export { MAX_PEPPOL_LINES, parsePeppol, PEPPOL_BIS3 } from './peppol/parse.js';
export {
  generatePeppol,
  type GeneratedPeppol,
  type PeppolNamespaces,
  type PeppolOptions,
  type PeppolRowStyle,
  type PeppolSellerIds,
} from './generator/peppol.js';
