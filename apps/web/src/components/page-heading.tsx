import type { ReactNode } from 'react';
import { Flex, Typography } from 'antd';

/** The title row of a page, with optional actions on the right. */
export function PageHeading({ title, extra }: { title: ReactNode; extra?: ReactNode }) {
  return (
    <Flex className="page-heading" justify="space-between" align="center" wrap gap={12}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {extra}
    </Flex>
  );
}
