/** The page sizes every server-paged table offers. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** After a delete the last page may be gone: the page to show for `total` rows. */
export const clampPage = (page: number, pageSize: number, total: number): number =>
  Math.min(page, Math.max(1, Math.ceil(total / pageSize)));
