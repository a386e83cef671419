/**
 * The @ant-design/icons the shared menus name, re-exported one by one so that the bundle keeps only
 * these (menu-icons.tsx reads them by name).
 */
export {
  AppstoreOutlined,
  BarChartOutlined,
  BellOutlined,
  CloudUploadOutlined,
  ContactsOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  TeamOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
