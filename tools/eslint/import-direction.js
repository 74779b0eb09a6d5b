// Local lint rule: the import directions of CONVENTIONS.md.
//  - packages/domain is pure: it imports only its own files and zod (no I/O, no other package).
//  - server and console never import each other; e2e imports neither's internals (only the
//    console's declared catalogues entry, for its language checks).
//  - console: lib → components → features → app; a layer imports only its own or lower layers,
//    and a feature never imports another feature.
import path from 'node:path';

const CONSOLE_LAYERS = ['lib', 'components', 'features', 'app'];

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
