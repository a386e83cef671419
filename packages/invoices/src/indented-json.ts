/** The CLI's JSON output, written in pieces (src/cli.ts `parse`). */

/** About this many characters are written at a time (stdout to a file or pipe is synchronous). */
const JSON_CHUNK = 1 << 16;
/** Array elements stringified at a time. */
const JSON_RUN = 16;
const RUN_OPEN = '{\n  "k": [';
const RUN_CLOSE = '\n  ]\n}';

/**
 * Writes `JSON.stringify(value, null, 2)` and a newline, the same characters, in pieces: the
 * top-level arrays (a large invoice's subscriptions) 16 elements at a time, so neither one string of
 * the whole invoice (13 MB for 6,000 subscriptions) nor its bytes are ever held (peak RSS).
 */
export function writeIndentedJson(value: object, write: (text: string) => void): void {
  let out = '{';
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    const json = Array.isArray(field) ? null : (JSON.stringify(field, null, 2) as string | undefined);
    if (json === undefined) continue; // undefined, a function: left out as JSON.stringify does
    out += `${first ? '' : ','}\n  ${JSON.stringify(key)}: `;
    first = false;
    if (json !== null) {
      out += json.replaceAll('\n', '\n  ');
      continue;
    }
    const items = field as unknown[];
    if (!items.length) {
      out += '[]';
      continue;
    }
    // a run of elements inside `{"k": [ … ]}` comes out indented as in the whole: its brackets cut off
    for (let i = 0; i < items.length; i += JSON_RUN) {
      const run = JSON.stringify({ k: items.slice(i, i + JSON_RUN) }, null, 2);
      out += `${i ? ',' : '['}${run.slice(RUN_OPEN.length, run.length - RUN_CLOSE.length)}`;
      if (out.length > JSON_CHUNK) {
        write(out);
        out = '';
      }
    }
    out += '\n  ]';
  }
  write(`${out}${first ? '' : '\n'}}\n`);
}
