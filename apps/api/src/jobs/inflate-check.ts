import zlib from 'node:zlib';

/**
 * A cheap pre-check of a PDF before any PDF library reads it: every FlateDecode stream is inflated
 * with node's zlib, streamed and thrown away chunk by chunk, and the inflated bytes of all streams
 * are added up. Above `limitBytes` the check stops at once, so a decompression bomb (a 2 MB file
 * whose content stream inflates to gigabytes) is refused having used a few megabytes, not the
 * gigabytes a PDF reader would allocate. A stream behind several FlateDecode filters is inflated
 * stage by stage (each stage counted). Damaged streams count what inflates before the damage.
 * Pure node (no PDF library); runs in the parse child.
 */
export async function inflatedSize(
  pdf: Uint8Array,
  limitBytes: number,
): Promise<{ within: boolean; bytes: number }> {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let total = 0;
  for (const s of flateStreams(buf)) {
    const left = limitBytes - total;
    const used = await inflateCounting(buf.subarray(s.start, s.end), s.stages, left);
    total += used;
    if (total > limitBytes) return { within: false, bytes: total };
  }
  return { within: true, bytes: total };
}

const STREAM = Buffer.from('stream', 'latin1');
const ENDSTREAM = Buffer.from('endstream', 'latin1');

/** Data ranges of the streams whose dictionary names FlateDecode, with how many times it does. */
function* flateStreams(buf: Buffer): Generator<{ start: number; end: number; stages: number }> {
  let from = 0;
  for (;;) {
    const at = buf.indexOf(STREAM, from);
    if (at < 0) return;
    from = at + STREAM.length;
    // Not the tail of "endstream"; the keyword ends its line (CRLF or LF, CR tolerated).
    if (at >= 3 && buf.toString('latin1', at - 3, at) === 'end') continue;
    let start = from;
    if (buf[start] === 0x0d) start++;
    if (buf[start] === 0x0a) start++;
    if (start === from) continue;
    const end = buf.indexOf(ENDSTREAM, start);
    if (end < 0) return;
    from = end + ENDSTREAM.length;
    // The stream's dictionary: back to the object header (at most 4 KiB).
    const head = buf.toString('latin1', Math.max(0, at - 4096), at);
    const dict = head.slice(head.lastIndexOf(' obj') + 1);
    const stages = (dict.match(/\/FlateDecode\b|\/Fl\b/g) ?? []).length;
    if (stages > 0) yield { start, end, stages };
  }
}

/**
 * Inflates `data` through `stages` chained inflaters, counting every stage's output; stops (and
 * reports limit + 1) as soon as the count passes `limit`. Nothing inflated is kept.
 */
function inflateCounting(data: Buffer, stages: number, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const chain = Array.from({ length: Math.min(stages, 4) }, () =>
      zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH, chunkSize: 64 * 1024 }),
    );
    let count = 0;
    let done = false;
    const finish = (n: number) => {
      if (done) return;
      done = true;
      for (const z of chain) z.destroy();
      resolve(n);
    };
    chain.forEach((z, i) => {
      z.on('error', () => finish(count));
      z.on('data', (chunk: Buffer) => {
        count += chunk.length;
        if (count > limit) return finish(limit + 1);
        const next = chain[i + 1];
        if (next && !next.write(chunk)) {
          z.pause();
          next.once('drain', () => z.resume());
        }
      });
      z.on('end', () => {
        const next = chain[i + 1];
        if (next) next.end();
        else finish(count);
      });
    });
    chain[0].end(data);
  });
}
