import { Link } from 'react-router';

/** The Kulu mark at the top of the menu. */
export function SiderBrand({ collapsed }: { collapsed: boolean }) {
  return (
    <Link to="/" className="sider-brand" aria-label="Kulu">
      <svg viewBox="0 0 48 48" width="30" height="30" aria-hidden="true">
        <rect width="48" height="48" rx="12" fill="currentColor" className="sider-brand-box" />
        <path
          d="M15 12v24M15 25l12-13M19 21l10 15"
          stroke="#fff"
          strokeWidth="4.5"
          strokeLinecap="round"
          strokeLinejoin="round"
          fill="none"
        />
      </svg>
      {!collapsed && <span className="sider-brand-name">Kulu</span>}
    </Link>
  );
}
