import { Descriptions, type DescriptionsProps } from 'antd';

/** The facts of a profile card, laid out alike on every card: bordered, two columns from md up. */
export function ProfileDetails({ items }: { items: DescriptionsProps['items'] }) {
  return <Descriptions column={{ xs: 1, md: 2 }} bordered size="middle" items={items} />;
}
