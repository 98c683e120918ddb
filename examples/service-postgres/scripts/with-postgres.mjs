#!/usr/bin/env node
// Runs a command beside a private, throwaway PostgreSQL server:
//
//   node scripts/with-postgres.mjs [--timeout <minutes>] <command> [args...]
//
// It creates a temporary folder, initialises a cluster there with the binaries of Debian's
// `postgresql` package (the newest major under /usr/lib/postgresql, or the folder named by
// PG_BINDIR), starts the server on a unix socket inside that folder only (no TCP listener),
// on a port of its own, runs the command with PGHOST, PGPORT, PGUSER and PGDATABASE set,
// then stops the server and removes the folder. The exit status is the command's.
//
// When run as root the server runs as the `postgres` user (or `nobody`), which owns the
// folder. The server is started with a parent-death signal, so it stops even when this
// script is killed; a folder left behind that way is removed by the next run. The command
// is killed after --timeout minutes (30 by default), so a hung test cannot keep a server.
//
// The cluster trades durability for speed (fsync off): it is for tests, never for data.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants as osConstants, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'platform-ext-pg-';

function fail(message) {
  process.stderr.write(`with-postgres: ${message}\n`);
  process.exit(2);
}

let args = process.argv.slice(2);
let timeoutMinutes = 30;
if (args[0] === '--timeout') {
  timeoutMinutes = Number(args[1]);
  if (!(timeoutMinutes > 0)) fail('--timeout takes a number of minutes');
  args = args.slice(2);
}
if (args.length === 0) fail('usage: with-postgres.mjs [--timeout <minutes>] <command> [args...]');

/** The bin folder of the newest PostgreSQL major installed the Debian way. */
function findBindir() {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base) ? readdirSync(base).filter((n) => /^\d+$/.test(n) && existsSync(join(base, n, 'bin', 'postgres'))) : [];
  if (majors.length === 0) fail(`no PostgreSQL server under ${base}: install the Debian package \`postgresql\`, or set PG_BINDIR`);
  majors.sort((a, b) => Number(b) - Number(a));
  return join(base, majors[0], 'bin');
}

/** A TCP port nothing listens on now; the server uses it only to name its socket file. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The user the server runs as: ourselves, or an unprivileged account when we are root. */
function serverUser() {
  const me = userInfo();
  if (me.uid !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    if (r.status === 0) {
      const uid = Number(r.stdout.trim());
      const gid = Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim());
      return { name, uid, gid };
    }
  }
  fail('running as root and neither a `postgres` nor a `nobody` account exists');
}

/** Runs a PostgreSQL binary, as the server user when there is one, with a parent-death signal. */
function command(user, bin, argv, { deathSignal } = {}) {
  const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
  if (!hasSetpriv) {
    if (user) fail('running as root needs `setpriv` (util-linux) to drop privileges');
    return [bin, argv];
  }
  const pre = [];
  if (user) pre.push(`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups');
  if (deathSignal) pre.push(`--pdeathsig=${deathSignal}`);
  if (pre.length === 0) return [bin, argv];
  return ['setpriv', [...pre, '--', bin, ...argv]];
}

/** Removes folders an earlier run left behind when it was killed (its server is gone by then). */
function removeStale() {
  const dir = tmpdir();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(PREFIX)) continue;
    const folder = join(dir, name);
    // Only a folder laid out as this script lays them out (its socket folder is made first).
    if (!existsSync(join(folder, 'socket'))) continue;
    const pidFile = join(folder, 'data', 'postmaster.pid');
    let alive = false;
    try {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (pid > 0) {
        process.kill(pid, 0);
        alive = true;
      }
    } catch (error) {
      alive = error.code === 'EPERM';
    }
    // A folder younger than a minute may belong to a run that is still starting.
    const young = Date.now() - statSync(folder).mtimeMs < 60_000;
    if (!alive && !young) rmSync(folder, { recursive: true, force: true });
  }
}

const bindir = findBindir();
const user = serverUser();
removeStale();
const folder = mkdtempSync(join(tmpdir(), PREFIX));
const data = join(folder, 'data');
const socketDir = join(folder, 'socket');
mkdirSync(socketDir, { mode: 0o700 });
if (user) {
  chownSync(folder, user.uid, user.gid);
  chownSync(socketDir, user.uid, user.gid);
}

let server = null;
let child = null;
let finishing = false;

function cleanUp() {
  try {
    rmSync(folder, { recursive: true, force: true });
  } catch (error) {
    process.stderr.write(`with-postgres: could not remove ${folder}: ${error.message}\n`);
  }
}

/** Fast shutdown (SIGINT), then SIGKILL if the server takes more than 20 seconds. */
function stopServer() {
  return new Promise((resolve) => {
    if (!server || server.exitCode !== null || server.signalCode !== null) return resolve();
    const timer = setTimeout(() => server.kill('SIGKILL'), 20_000);
    server.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    server.kill('SIGINT');
  });
}

async function finish(status) {
  if (finishing) return;
  finishing = true;
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await stopServer();
  cleanUp();
  process.exit(status);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    process.stderr.write(`with-postgres: ${signal}, stopping\n`);
    finish(130);
  });
}

try {
  const port = await freePort();
  const [initBin, initArgs] = command(user, join(bindir, 'initdb'), [
    '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync',
  ]);
  const init = spawnSync(initBin, initArgs, { encoding: 'utf8', cwd: folder });
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`);

  const settings = {
    listen_addresses: '',
    port: String(port),
    unix_socket_directories: socketDir,
    max_connections: '300',
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    shared_buffers: '64MB',
    log_min_messages: 'warning',
  };
  const serverArgs = ['-D', data, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const [serverBin, argv] = command(user, join(bindir, 'postgres'), serverArgs, { deathSignal: 'SIGQUIT' });
  let log = '';
  server = spawn(serverBin, argv, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (b) => (log += b));
  server.stderr.on('data', (b) => (log += b));
  server.on('exit', (code, signal) => {
    if (!finishing) {
      process.stderr.write(`with-postgres: the server stopped on its own (${signal ?? code})\n${log}`);
      finish(1);
    }
  });

  // Ready when pg_isready answers over the socket (at most 30 seconds).
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = spawnSync(join(bindir, 'pg_isready'), ['-h', socketDir, '-p', String(port), '-U', 'postgres', '-q']);
    if (r.status === 0) break;
    if (Date.now() > deadline) throw new Error(`the server did not accept connections within 30 seconds:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  const env = { ...process.env, PGHOST: socketDir, PGPORT: String(port), PGUSER: 'postgres', PGDATABASE: 'postgres' };
  delete env.PGPASSWORD;
  process.stderr.write(`with-postgres: PostgreSQL ${bindir.split('/').at(-2)} on ${socketDir} port ${port}\n`);
  child = spawn(args[0], args.slice(1), { stdio: 'inherit', env });
  const timer = setTimeout(() => {
    process.stderr.write(`with-postgres: the command ran over ${timeoutMinutes} minutes, stopping it\n`);
    finish(124);
  }, timeoutMinutes * 60_000);
  timer.unref();
  child.on('error', (error) => {
    process.stderr.write(`with-postgres: cannot run ${args[0]}: ${error.message}\n`);
    finish(127);
  });
  // A command killed by a signal exits 128 + the signal's number, as a shell reports it.
  child.on('exit', (code, signal) => finish(code ?? 128 + (osConstants.signals[signal] ?? 0)));
} catch (error) {
  process.stderr.write(`with-postgres: ${error.message}\n`);
  await finish(1);
}
