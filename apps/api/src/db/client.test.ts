import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';

describe('the embedded database (PGlite)', () => {
  it('runs with small shared buffers, so the idle server stays small', async () => {
    const database = await openDatabase({});
    try {
      const { rows } = await database.executeSql('show shared_buffers', []);
      expect(rows).toEqual([{ shared_buffers: '16MB' }]);
      const work = await database.executeSql('show maintenance_work_mem', []);
      expect(work.rows).toEqual([{ maintenance_work_mem: '16MB' }]);
    } finally {
      await database.close();
    }
  });
});
