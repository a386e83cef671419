import type { ComponentType, ReactNode } from 'react';
import type { MasterKey } from '@kulu/shared';
import type { Row } from './api';
import { CostElementBulkActions, CostElementRowActions, CostElementStatusTag } from './cost-element-actions';
import { HelpFileRowActions } from './help-file-actions';

/**
 * What is truly special about some masters, beside the generic page: extra cells, per-row
 * actions and actions on the selected rows. Everything else comes from the declaration.
 */
export interface MasterExtras {
  renderCell?: Record<string, (value: unknown, row: Row) => ReactNode>;
  RowActions?: ComponentType<{ row: Row }>;
  /** Rows can be selected; these act on the selection. */
  BulkActions?: ComponentType<{ ids: number[]; onDone: () => void }>;
}

export const MASTER_EXTRAS: Partial<Record<MasterKey, MasterExtras>> = {
  costElements: {
    renderCell: { status: (value) => <CostElementStatusTag status={value} /> },
    RowActions: CostElementRowActions,
    BulkActions: CostElementBulkActions,
  },
  help: { RowActions: HelpFileRowActions },
};
