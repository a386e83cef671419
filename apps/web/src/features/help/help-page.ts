/** The page a help file belongs to: the route path, without trailing slash, query or hash. */
export function helpPageOf(pathname: string): string {
  const path = pathname.split(/[?#]/)[0].replace(/\/+$/, '');
  return path.startsWith('/') ? path || '/' : `/${path}`;
}

/** Help files open in the browser when it can show them (PDF), else they are downloaded. */
export const opensInBrowser = (mime: string): boolean => mime === 'application/pdf';
