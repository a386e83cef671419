import type { ReactNode } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';

/** A page's or list's main action that adds something (a row, a client, an automation): primary, with a plus. */
export function AddButton({
  label,
  onClick,
  testId,
}: {
  label: ReactNode;
  onClick: () => void;
  testId: string | undefined;
}) {
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
}
