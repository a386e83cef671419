import type { MasterKey } from '@kulu/shared';
import type { ResourceExtras } from '../../components/resource/resource-section';
import { CostElementBulkActions, CostElementRowActions, CostElementStatusTag } from './cost-element-actions';
import { HelpFileRowActions } from './help-file-actions';

/**
 * What is truly special about some masters, beside the generic resource screen: extra cells,
 * per-row actions and actions on the selected rows. Everything else comes from the declaration.
 */
export const MASTER_EXTRAS: Partial<Record<MasterKey, ResourceExtras>> = {
  costElements: {
    renderCell: { status: (value) => <CostElementStatusTag status={value} /> },
    RowActions: CostElementRowActions,
    BulkActions: CostElementBulkActions,
  },
  help: { RowActions: HelpFileRowActions },
};
