import { useState, type Key } from 'react';

/**
 * Rows of a paged table chosen by their numeric ids (a bulk action's rows): the ids, a setter, and
 * the table's `rowSelection`, which keeps the chosen rows while another page is shown.
 */
export function useIdSelection() {
  const [ids, setIds] = useState<number[]>([]);
  const rowSelection = {
    selectedRowKeys: ids,
    preserveSelectedRowKeys: true,
    onChange: (keys: readonly Key[]) => setIds(keys.map(Number)),
  };
  return [ids, setIds, rowSelection] as const;
}
