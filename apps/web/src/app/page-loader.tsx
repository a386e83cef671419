import { Spin } from 'antd';

/** Fallback while a page's code loads on demand. */
export function PageLoader() {
  return (
    <div className="page-loader">
      <Spin size="large" />
    </div>
  );
}
