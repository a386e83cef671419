import { Input } from 'antd';
import { SearchOutlined } from '@ant-design/icons';

interface Props {
  /** What the box shows (usePagedState's `search`). */
  value: string;
  onChange: (text: string) => void;
  /** Enter or the button: search at once (usePagedState's `submitSearch`). */
  onSearch: (text: string) => void;
  /** Translated placeholder, also the accessible name. */
  placeholder: string;
  width?: number;
  /** The toolbar's own line above the table: up to 320 px wide with space below (instead of `width`). */
  alone?: boolean;
  testId?: string;
}

/** The search box of a PagedTable's toolbar: clearable, searching as one types (after a pause) or on Enter. */
export function SearchBox({
  value,
  onChange,
  onSearch,
  placeholder,
  width = 280,
  alone = false,
  testId = 'search',
}: Props) {
  return (
    <Input.Search
      allowClear
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onSearch={onSearch}
      placeholder={placeholder}
      aria-label={placeholder}
      // The button's only content: an icon the app names (unnamed icons are hidden, vite.config.ts).
      searchIcon={<SearchOutlined aria-label={placeholder} />}
      style={alone ? { maxWidth: 320, marginBottom: 12 } : { width }}
      data-testid={testId}
    />
  );
}
