import { Link } from 'react-router';
import { KuluMark } from '../../components/kulu-mark';

/** The Kulu mark at the top of the menu. */
export function SiderBrand({ collapsed }: { collapsed: boolean }) {
  return (
    <Link to="/" className="sider-brand" aria-label="Kulu">
      <KuluMark size={30} boxProps={{ fill: 'currentColor', className: 'sider-brand-box' }} />
      {!collapsed && <span className="sider-brand-name">Kulu</span>}
    </Link>
  );
}
