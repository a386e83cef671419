/** The types of files-under.mjs (plain JavaScript, run by Node without a build). */
export function filesUnder(
  root: string,
  rel: string,
  skip: (child: string, name: string) => boolean,
  out?: string[],
): string[];
