#!/usr/bin/env node
// `npm run test:pgbouncer` (issue 23, docs/decisions/0034): the server's integration suite on
// PostgreSQL through PgBouncer (Debian's package) in transaction pooling mode — every app and
// spawned server of the suite reaches its database through the pooler, so advisory locks,
// prepared statements, transactions and everything else are proven to work behind it.
// PgBouncer listens on a free loopback port for the run only and stops with it.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const server = new URL(process.env.LATCHKEY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const binary = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => spawnSync(path, ['--version']).status === 0);
if (!binary) {
  console.error('PgBouncer is not installed: apt-get install pgbouncer');
  process.exit(1);
}

const port = await new Promise((ok) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => ok(free));
  });
});
const dir = mkdtempSync(join(tmpdir(), 'latchkey-pgbouncer-'));
chmodSync(dir, 0o755);
const user = decodeURIComponent(server.username || 'postgres');
writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
writeFileSync(
  join(dir, 'pgbouncer.ini'),
  `[databases]
* = host=${server.hostname} port=${server.port || 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 20
max_db_connections = 40
server_idle_timeout = 5
server_login_retry = 1
ignore_startup_parameters = extra_float_digits
admin_users = ${user}
`,
);
// PgBouncer does not run as root: as the postgres user then.
const asUser = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
const pooler = spawn(binary, [...asUser, join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
let poolerLog = '';
pooler.stderr.on('data', (chunk) => (poolerLog += chunk));

const listening = async () => {
  for (let i = 0; i < 100; i++) {
    const up = await new Promise((ok) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        ok(true);
      });
      socket.on('error', () => ok(false));
    });
    if (up) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`PgBouncer did not listen on ${port}:\n${poolerLog}`);
};

let code;
try {
  await listening();
  const pooled = new URL(server);
  pooled.port = String(port);
  console.log(`PgBouncer ${port} (transaction pooling) in front of ${server.host}`);
  code = await new Promise((ok) => {
    const run = spawn('npx', ['vitest', 'run', '--project', 'server', ...process.argv.slice(2)], {
      stdio: 'inherit',
      // Debian's PgBouncer (1.18) cannot carry named prepared statements across its server connections:
      // the servers the suite starts are told so, as an operator behind it would (README "Behind PgBouncer").
      env: { ...process.env, LATCHKEY_TEST_POOLER_URL: pooled.href, LATCHKEY_TEST_DRIVERS: 'postgres', DATABASE_PREPARED_STATEMENTS: 'off' },
    });
    run.on('close', (status) => ok(status ?? 1));
  });
  // What went through the pooler: a suite that bypassed it would show no transactions here.
  const admin = new pg.Client({ host: '127.0.0.1', port, user, database: 'pgbouncer' });
  await admin.connect();
  const { rows } = await admin.query('SHOW STATS');
  await admin.end();
  const transactions = rows.reduce((sum, row) => sum + Number(row.total_xact_count ?? 0), 0);
  const queries = rows.reduce((sum, row) => sum + Number(row.total_query_count ?? 0), 0);
  console.log(`Through PgBouncer: ${transactions} transactions, ${queries} statements`);
  if (transactions === 0) code = 1;
} finally {
  pooler.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
