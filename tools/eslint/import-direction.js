// Local lint rule: the import directions of CONVENTIONS.md.
//  - packages/domain is pure: it imports only its own files and zod (no I/O, no other package).
//  - server and console never import each other; e2e imports neither's internals (only the
//    console's declared catalogues entry, for its language checks).
//  - console: lib → components → features → app; a layer imports only its own or lower layers,
//    and a feature never imports another feature.
//  - server: the floors of packages/server/src below, from the ground up; a file imports only its
//    own floor or lower ones (issue 35). The ground is the root's small files and mail/; app.ts and
//    main.ts, the composition root, stand on top.
import path from 'node:path';

const CONSOLE_LAYERS = ['lib', 'components', 'features', 'app'];

/**
 * The server's floors. db: the client, migrations and shared tables' plumbing; http: the request
 * plumbing; events: the audit event writer; outbox: messages delivered at least once; oidc: the one
 * OpenID kernel; people: end users, their passkeys, sessions and QuickCodes; issuer: a project's
 * issuer on the kernel; account: the end user's own page; idp: the console's own issuer; modules:
 * the management API's resources.
 */
const SERVER_LAYERS = ['ground', 'db', 'http', 'events', 'outbox', 'oidc', 'people', 'issuer', 'account', 'idp', 'modules', 'root'];

function serverLayer(rest) {
  const parts = rest.split('/');
  if (parts[0] !== 'src') return null;
  if (parts.length === 2) return parts[1] === 'app.ts' || parts[1] === 'main.ts' ? 'root' : 'ground';
  if (parts[1] === 'mail') return 'ground';
  return SERVER_LAYERS.includes(parts[1]) ? parts[1] : null;
}

function locate(file) {
  const norm = file.split(path.sep).join('/');
  const m = norm.match(/packages\/([^/]+)\/(.*)$/);
  if (!m) return null;
  const [, pkg, rest] = m;
  const where = { pkg, rest, layer: null, feature: null };
  if (pkg === 'console') {
    const c = rest.match(/^src\/([^/]+)(?:\/([^/]+))?/);
    if (c && CONSOLE_LAYERS.includes(c[1])) {
      where.layer = c[1];
      if (c[1] === 'features') where.feature = c[2] ?? null;
    }
  }
  if (pkg === 'server') where.layer = serverLayer(rest);
  return where;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the import directions of CONVENTIONS.md' },
    schema: [],
    messages: { forbidden: '{{reason}}' },
  },
  create(context) {
    const filename = context.filename;
    const from = locate(filename);
    if (!from) return {};
    function check(node, source) {
      if (typeof source !== 'string') return;
      const report = (reason) => context.report({ node, messageId: 'forbidden', data: { reason } });
      if (from.pkg === 'domain' && from.rest.startsWith('src/')) {
        if (!source.startsWith('.') && source !== 'zod') {
          report(`packages/domain is pure: it may import only its own files and zod, not '${source}'.`);
        }
      }
      if (source.startsWith('@latchkey/')) {
        const target = source.split('/')[1];
        // The e2e suite reads the console's catalogues (issue 13) through the entry the console declares for it.
        if (from.pkg === 'e2e' && source === '@latchkey/console/catalogues') return;
        if (target !== 'domain' && target !== from.pkg) {
          report(`packages/${from.pkg} may not import @latchkey/${target}; share code through @latchkey/domain.`);
        }
        return;
      }
      if (!source.startsWith('.')) return;
      const to = locate(path.resolve(path.dirname(filename), source));
      if (!to) return;
      if (to.pkg !== from.pkg) {
        report(`packages/${from.pkg} may not reach into packages/${to.pkg} by path; import its package entry.`);
        return;
      }
      if (from.pkg === 'server' && from.layer && to.layer) {
        if (SERVER_LAYERS.indexOf(to.layer) > SERVER_LAYERS.indexOf(from.layer)) {
          report(
            `server/src/${from.layer} may not import from server/src/${to.layer}: the floors run ${SERVER_LAYERS.join(' → ')}; move the shared piece down.`,
          );
        }
        return;
      }
      if (from.pkg !== 'console' || !from.layer || !to.layer) return;
      const fromRank = CONSOLE_LAYERS.indexOf(from.layer);
      const toRank = CONSOLE_LAYERS.indexOf(to.layer);
      if (toRank > fromRank) {
        report(`console/src/${from.layer} may not import from console/src/${to.layer} (lib → components → features → app).`);
      } else if (from.layer === 'features' && to.layer === 'features' && from.feature !== to.feature) {
        report(`Feature '${from.feature}' may not import feature '${to.feature}'; move the shared piece to components/ or lib/.`);
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'import-direction': rule } };
