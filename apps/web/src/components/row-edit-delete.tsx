import { Button, Popconfirm, Space, Tooltip, type ButtonProps } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';

export interface RowEditDeleteProps {
  /** Opens the row's form; left out: no edit button (rows written otherwise, e.g. by upload). */
  onEdit?: () => void;
  /**
   * Runs once the deletion is confirmed (its promise keeps the confirmation busy); left out: no
   * delete button (rows never deleted, e.g. users who are deactivated instead).
   */
  onDelete?: () => unknown;
  /** The buttons' accessible names (and the confirmation's OK). */
  editLabel: string;
  deleteLabel: string;
  /** The confirmation's question, and what it tells beside it (e.g. why a row may be kept). */
  confirm: string;
  confirmHelp?: string;
  cancelLabel: string;
  /** `data-testid` of the two buttons, `<prefix>-edit` and `<prefix>-delete`. */
  testIdPrefix?: string;
  /** Or each one: the edit and delete buttons and the confirmation's OK. */
  testIds?: { edit?: string; delete?: string; confirm?: string };
  /** Borderless buttons with a tooltip (a page's wide table) rather than small outlined ones. */
  plain?: boolean;
  /** Further actions of the row, before these two. */
  before?: ReactNode;
  className?: string;
}

/**
 * The edit and delete buttons of a row of a resource's table: edit opens the row's form, delete
 * asks first (a danger confirmation naming the action).
 */
export function RowEditDelete(p: RowEditDeleteProps) {
  const testId = (what: 'edit' | 'delete' | 'confirm') => {
    const id =
      p.testIds?.[what] ?? (p.testIdPrefix && what !== 'confirm' ? `${p.testIdPrefix}-${what}` : undefined);
    return id ? { 'data-testid': id } : {};
  };
  const type = p.plain ? 'text' : undefined;
  const edit = p.onEdit && (
    <Button
      type={type}
      size="small"
      icon={<EditOutlined />}
      aria-label={p.editLabel}
      onClick={p.onEdit}
      {...testId('edit')}
    />
  );
  return (
    <Space size={p.plain ? 0 : undefined} className={p.className}>
      {p.before}
      {edit && (p.plain ? <Tooltip title={p.editLabel}>{edit}</Tooltip> : edit)}
      {p.onDelete && (
        <Popconfirm
          title={p.confirm}
          description={p.confirmHelp}
          okText={p.deleteLabel}
          cancelText={p.cancelLabel}
          okButtonProps={{ danger: true, ...testId('confirm') } as ButtonProps}
          onConfirm={p.onDelete}
        >
          {/* No tooltip here: it would cover the confirmation; the title attribute names it. */}
          <Button
            type={type}
            size="small"
            danger
            icon={<DeleteOutlined />}
            title={p.plain ? p.deleteLabel : undefined}
            aria-label={p.deleteLabel}
            {...testId('delete')}
          />
        </Popconfirm>
      )}
    </Space>
  );
}
