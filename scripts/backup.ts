// npm run backup [-- FILE]   writes a backup of the database (and of DATA_DIR/secrets) to FILE
//                            (default kulu-backup-<time>.gz in the current directory), mode 600;
// npm run restore -- FILE    restores FILE into an empty database: a new DATA_DIR, or an empty
//                            DATABASE_URL database (before the server's first start on it).
// The database is DATABASE_URL's, or the embedded PostgreSQL of DATA_DIR (default ./data): while the
// server runs, through its socket (the backup is one consistent snapshot); otherwise the script
// starts the cluster itself and stops it again. Format and reasons: docs/decisions/0029-backups.md.
import fs from 'node:fs';
import path from 'node:path';
import { BackupError, backupDatabase, restoreDatabase } from '../apps/api/src/db/backup.js';
import { openDatabase, type Database } from '../apps/api/src/db/client.js';
import { openEmbedded } from '../apps/api/src/db/embedded.js';
import { CLUSTER_DIR, DATABASE_NAME } from '../apps/api/src/db/embedded-postgres.js';

const [command, fileArg] = process.argv.slice(2);
const dataDir = path.resolve(process.env.DATA_DIR || './data');
const log = (line: string) => console.error(line);

/** The embedded server that `npm start` runs on DATA_DIR now, by its socket; null when none runs. */
function runningEmbedded(): string | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dataDir, CLUSTER_DIR, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  // postmaster.pid's fourth line: the server's port (the socket's name); its fifth: the socket's directory.
  const port = Number(lines[3]) || 5432;
  return `postgres://postgres@localhost:${port}/${DATABASE_NAME}?host=${encodeURIComponent(lines[4])}`;
}

async function open(): Promise<{ database: Database; close: () => Promise<void>; dataDir?: string }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const database = await openDatabase({ url });
    // With DATABASE_URL the secrets are the environment's (JWT_SECRET, ENCRYPTION_KEY), unless
    // DATA_DIR is given and holds generated ones.
    return { database, close: () => database.close(), dataDir: process.env.DATA_DIR ? dataDir : undefined };
  }
  const running = runningEmbedded();
  if (running) {
    if (command === 'restore')
      throw new BackupError(
        `the server runs on ${dataDir}: restore into a new DATA_DIR, with no server on it`,
      );
    const database = await openDatabase({ url: running });
    return { database, close: () => database.close(), dataDir };
  }
  const hasData = ['postgres', 'pgdata'].some((d) => fs.existsSync(path.join(dataDir, d, 'PG_VERSION')));
  if (command === 'backup' && !hasData) throw new BackupError(`no database in ${dataDir} (DATA_DIR)`);
  const { database, server } = await openEmbedded(dataDir, log);
  return {
    database,
    dataDir,
    close: async () => {
      await database.close();
      await server?.stop();
    },
  };
}

async function main() {
  if (command !== 'backup' && command !== 'restore')
    throw new BackupError('usage: npm run backup [-- FILE] | npm run restore -- FILE');
  if (command === 'restore' && !fileArg) throw new BackupError('usage: npm run restore -- FILE');
  const file = path.resolve(fileArg || `kulu-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.gz`);
  const began = Date.now();
  const target = await open();
  try {
    const done =
      command === 'backup'
        ? await backupDatabase(target.database, file, { dataDir: target.dataDir })
        : await restoreDatabase(target.database, file, { dataDir: target.dataDir });
    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    console.log(
      command === 'backup'
        ? `backup: ${done.rows} rows of ${done.tables} tables${target.dataDir ? ' and the secrets of DATA_DIR' : ''} written to ${file} in ${seconds} s`
        : `restore: ${done.rows} rows of ${done.tables} tables restored from ${file} in ${seconds} s`,
    );
  } finally {
    await target.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof BackupError ? `${command}: ${e.message}` : e);
    process.exit(1);
  },
);
