import { z } from 'zod';

/** Kulu's licence (SPDX): MuPDF, which reads the invoice PDFs, is AGPL-3.0. */
export const KULU_LICENCE = 'AGPL-3.0-or-later';

/** `GET /api/about`: what the app shows in its footer and help (AGPL §13: where the source is). */
export const aboutSchema = z.object({
  product: z.string(),
  licence: z.string(),
  /** An absolute URL, or a path on this server (its own source archive). */
  sourceUrl: z.string(),
});
export type About = z.infer<typeof aboutSchema>;
