/**
 * The root element of an XML file from its first bytes, without reading the document: what the
 * format sniffer (src/file.ts) needs to tell a UBL (Peppol) document from a Finvoice one.
 */

/** How far into the file the root element is looked for. */
export const ROOT_SNIFF_BYTES = 8 * 1024;

export const UBL_NAMESPACE_PREFIX = 'urn:oasis:names:specification:ubl:schema:xsd:';
export const UBL_INVOICE_NAMESPACE = `${UBL_NAMESPACE_PREFIX}Invoice-2`;
export const UBL_CREDIT_NOTE_NAMESPACE = `${UBL_NAMESPACE_PREFIX}CreditNote-2`;
/** The Peppol transport frame (SBDH) an access point may deliver the UBL document in. */
export const SBDH_NAMESPACE = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';

export interface XmlRoot {
  /** As written, with its prefix (`Invoice`, `ubl:Invoice`). */
  name: string;
  /** Without its prefix. */
  local: string;
  /** The namespace its prefix (or the default namespace) is bound to on the root; '' when none. */
  namespace: string;
  /** A root in a UBL namespace, or a Peppol SBDH frame: the Peppol reader's to read or refuse. */
  ubl: boolean;
}

/**
 * The root element of the XML in `bytes` (after an optional byte order mark, the declaration,
 * comments, processing instructions and a DOCTYPE), judged from the first 8 KiB; null when no start
 * tag ends there. Lenient: the readers check well-formedness.
 */
export function xmlRootOf(bytes: Uint8Array): XmlRoot | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, ROOT_SNIFF_BYTES)).toString(
    'latin1',
  );
  let i = head.startsWith('\u00ef\u00bb\u00bf') ? 3 : 0;
  for (;;) {
    while (i < head.length && /\s/.test(head[i])) i++;
    if (head[i] !== '<') return null;
    if (head.startsWith('<?', i)) i = after(head, '?>', i);
    else if (head.startsWith('<!--', i)) i = after(head, '-->', i);
    else if (head.startsWith('<!DOCTYPE', i)) i = afterDoctype(head, i);
    else break;
    if (i < 0) return null;
  }
  const end = tagEnd(head, i);
  if (end < 0) return null;
  const tag = head.slice(i + 1, end);
  const name = /^[^\s/>]+/.exec(tag)?.[0];
  if (!name) return null;
  const colon = name.indexOf(':');
  const prefix = colon < 0 ? null : name.slice(0, colon);
  const local = colon < 0 ? name : name.slice(colon + 1);
  const namespace = attributeIn(tag, prefix ? `xmlns:${prefix}` : 'xmlns') ?? '';
  const ubl =
    namespace.startsWith(UBL_NAMESPACE_PREFIX) ||
    (local === 'StandardBusinessDocument' && namespace === SBDH_NAMESPACE);
  return { name, local, namespace, ubl };
}

function after(text: string, terminator: string, from: number): number {
  const at = text.indexOf(terminator, from + 2);
  return at < 0 ? -1 : at + terminator.length;
}

/** Past `<!DOCTYPE …>`, an internal subset `[…]` and quoted strings included. */
function afterDoctype(text: string, from: number): number {
  let quote = '';
  let bracket = false;
  for (let i = from + 9; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') bracket = true;
    else if (c === ']') bracket = false;
    else if (c === '>' && !bracket) return i + 1;
  }
  return -1;
}

/** The `>` that ends the start tag at `from` (outside quoted attribute values); -1 when not in `text`. */
function tagEnd(text: string, from: number): number {
  let quote = '';
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

function attributeIn(tag: string, name: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`\\s${escaped}\\s*=\\s*(["'])([^"']*)\\1`).exec(tag);
  return m?.[2];
}
