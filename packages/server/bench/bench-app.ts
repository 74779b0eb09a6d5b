import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';

/**
 * The Host of the benches' calls: PUBLIC_URL's, as the console's own calls name it. Any other name
 * (inject's default, localhost:80) is looked up as a project's custom domain first, one more
 * statement per call that the console never pays.
 */
export const BENCH_HOST = '127.0.0.1:8080';

/**
 * The server as the benches run it: on `db`, at http://127.0.0.1:8080 (never listened on: the
 * benches inject, or use its services), mail dropped, no console files; `env` adds to the config.
 */
export function benchApp(db: Db, env: Record<string, string> = {}) {
  return buildApp({
    config: loadConfig({ PORT: '8080', PUBLIC_URL: `http://${BENCH_HOST}`, ...env }),
    db,
    logger: false,
    mailer: { sendLoginCode: async () => {}, sendLoginLink: async () => {}, sendInvitation: async () => {}, sendNotice: async () => {} },
    consoleDist: '/nonexistent/console/dist',
  });
}
