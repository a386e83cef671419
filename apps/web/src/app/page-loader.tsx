/** Fallback while a page's code loads on demand (plain CSS: the entry stays small). */
export function PageLoader() {
  return (
    <div className="page-loader" role="status" aria-busy="true">
      <div className="page-loader-spinner" />
    </div>
  );
}
