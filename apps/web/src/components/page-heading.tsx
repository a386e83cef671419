import type { ReactNode } from 'react';
import { Flex, Typography, theme } from 'antd';

/**
 * The title row of a page, with optional actions on the right. The title is the page's one `<h1>`
 * (screen readers jump to it), drawn at the size of antd's third heading level.
 */
export function PageHeading({ title, extra }: { title: ReactNode; extra?: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Flex className="page-heading" justify="space-between" align="center" wrap gap={12}>
      <Typography.Title
        level={1}
        style={{ margin: 0, fontSize: token.fontSizeHeading3, lineHeight: token.lineHeightHeading3 }}
      >
        {title}
      </Typography.Title>
      {extra}
    </Flex>
  );
}
