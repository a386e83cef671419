import { Button, Popconfirm, Space } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';

export interface RowEditDeleteProps {
  onEdit: () => void;
  /** Runs once the deletion is confirmed. */
  onDelete: () => void;
  /** The buttons' accessible names (and the confirmation's OK). */
  editLabel: string;
  deleteLabel: string;
  /** The confirmation's question, and what it tells beside it (e.g. why a row may be kept). */
  confirm: string;
  confirmHelp?: string;
  cancelLabel: string;
  /** `data-testid` of the two buttons, `<prefix>-edit` and `<prefix>-delete`. */
  testIdPrefix?: string;
}

/**
 * The edit and delete buttons of a row of a section's table: edit opens the row's form, delete
 * asks first (a danger confirmation naming the action).
 */
export function RowEditDelete(p: RowEditDeleteProps) {
  const testId = (what: string) => (p.testIdPrefix ? { 'data-testid': `${p.testIdPrefix}-${what}` } : {});
  return (
    <Space>
      <Button
        size="small"
        icon={<EditOutlined />}
        aria-label={p.editLabel}
        onClick={p.onEdit}
        {...testId('edit')}
      />
      <Popconfirm
        title={p.confirm}
        description={p.confirmHelp}
        okText={p.deleteLabel}
        cancelText={p.cancelLabel}
        okButtonProps={{ danger: true }}
        onConfirm={p.onDelete}
      >
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={p.deleteLabel}
          {...testId('delete')}
        />
      </Popconfirm>
    </Space>
  );
}
