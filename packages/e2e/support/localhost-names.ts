import dns from 'node:dns';

/**
 * Chromium resolves every `*.localhost` name to the loopback address itself; Node's resolver does
 * not. The test app (relying-party.ts) runs in the scenario's Node process and exchanges codes at a
 * project's own host (`{project}.localhost:{port}`, docs/decisions/0047): this makes the process's
 * lookups answer 127.0.0.1 for `*.localhost` (and `*.test`, the scenarios' custom domains), with the name kept in the Host header. Other names
 * resolve as before. Idempotent. (The server suite's test/support/localhost-names.ts does the same.)
 */
let installed = false;
export function resolveLocalhostNames(): void {
  if (installed) return;
  installed = true;
  const original = dns.lookup;
  const patched = function lookup(this: unknown, host: string, ...rest: unknown[]) {
    const local = typeof host === 'string' && /\.(localhost|test)\.?$/i.test(host);
    return (original as (...args: unknown[]) => unknown).call(this, local ? '127.0.0.1' : host, ...rest);
  };
  (dns as { lookup: unknown }).lookup = patched;
}
