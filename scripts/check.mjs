#!/usr/bin/env node
// The static checks `npm test` runs before the tests: type checks of every workspace, lint and
// formatting, the copy-paste detector and the licences. Each is a process of its own that uses one
// core, so they run side by side, as many at a time as the machine has cores (issue 25: CI time);
// each one's output is printed whole when it ends, and the run fails when any of them failed.
// Usage: node scripts/check.mjs [group…]   (groups: typecheck, lint, cpd, licences; default all)
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** A TypeScript project's type check (its tsconfig.json). */
const tsc = (project) => ({
  group: 'typecheck',
  name: `tsc ${project}`,
  cmd: bin('tsc'),
  args: ['-p', project, '--noEmit'],
});

/** Every check, by group; the longest first, so that the last to start is a short one. */
const CHECKS = [
  tsc('apps/api'),
  { group: 'lint', name: 'eslint', cmd: bin('eslint'), args: ['.'] },
  tsc('apps/web'),
  {
    group: 'lint',
    name: 'prettier',
    cmd: bin('prettier'),
    args: ['--check', '**/*.{ts,tsx,json}', '--log-level', 'warn'],
  },
  { group: 'cpd', name: 'jscpd', cmd: bin('jscpd'), args: ['apps', 'packages', 'scripts'] },
  tsc('packages/shared'),
  tsc('packages/invoices'),
  tsc('packages/optimizer'),
  tsc('scripts'),
  { group: 'licences', name: 'licences', cmd: bin('tsx'), args: ['scripts/check-licences.ts'] },
];

const groups = process.argv.slice(2);
const unknown = groups.filter((g) => !CHECKS.some((c) => c.group === g));
if (unknown.length) {
  console.error(`check: unknown group ${unknown.join(', ')} (typecheck, lint, cpd, licences)`);
  process.exit(2);
}
const queue = CHECKS.filter((c) => groups.length === 0 || groups.includes(c.group));
const width = Math.max(1, os.availableParallelism());
/** The checks under way, with what each has printed so far. */
const running = new Map();
const failed = [];

function run(check) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(check.cmd, check.args, {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const state = { check, output: '' };
    running.set(child, state);
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (d) => (state.output += d));
    }
    // A process that cannot start emits both `error` and `close`: it is reported once.
    let settled = false;
    const done = (code) => {
      if (settled) return;
      settled = true;
      running.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      if (!ok) failed.push(check.name);
      console.log(`${ok ? '✓' : '✗'} ${check.name} (${seconds} s)${ok ? '' : `: exit ${code}`}`);
      if (state.output.trim()) console.log(state.output.trimEnd());
      resolve();
    };
    child.on('error', (e) => {
      state.output += `${e.message}\n`;
      done(null);
    });
    child.on('close', done);
  });
}

async function lane() {
  for (let check = queue.shift(); check; check = queue.shift()) await run(check);
}

// Stopped (Ctrl-C, or CI's timeout): what the unfinished checks printed is shown, so that a check
// that hung leaves a trace.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    for (const [child, { check, output }] of running) {
      child.kill(signal);
      console.log(`✗ ${check.name}: stopped by ${signal}`);
      if (output.trim()) console.log(output.trimEnd());
    }
    process.exit(code);
  });
}

await Promise.all(Array.from({ length: Math.min(width, queue.length) }, lane));
if (failed.length) {
  console.error(`check: failed: ${failed.join(', ')}`);
  process.exit(1);
}
