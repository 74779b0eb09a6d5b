import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';

/**
 * The server as the benches run it: on `db`, at http://127.0.0.1:8080 (never listened on: the
 * benches inject, or use its services), mail dropped, no console files; `env` adds to the config.
 */
export function benchApp(db: Db, env: Record<string, string> = {}) {
  return buildApp({
    config: loadConfig({ PORT: '8080', PUBLIC_URL: 'http://127.0.0.1:8080', ...env }),
    db,
    logger: false,
    mailer: { sendLoginCode: async () => {}, sendLoginLink: async () => {}, sendInvitation: async () => {}, sendNotice: async () => {} },
    consoleDist: '/nonexistent/console/dist',
  });
}
