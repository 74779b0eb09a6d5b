import dns from 'node:dns';

/**
 * Browsers resolve every `*.localhost` name to the loopback address (and the tests' custom domains
 * under `.test` stand for names an operator's DNS would point here); Node's resolver does not. This
 * makes the process's lookups answer 127.0.0.1 for those names, so fetch, the test Browser and
 * openid-client reach a project's own host (`{project}.localhost:{port}`, docs/decisions/0047) with
 * its name in the Host header, as a browser would. Other names resolve as before. Idempotent.
 */
let installed = false;
export function resolveLocalNames(): void {
  if (installed) return;
  installed = true;
  const original = dns.lookup;
  const patched = function lookup(this: unknown, host: string, ...rest: unknown[]) {
    const local = typeof host === 'string' && /\.(localhost|test)\.?$/i.test(host);
    return (original as (...args: unknown[]) => unknown).call(this, local ? '127.0.0.1' : host, ...rest);
  };
  // node:net reads dns.lookup at each connection, so replacing the property is enough.
  (dns as { lookup: unknown }).lookup = patched;
}
