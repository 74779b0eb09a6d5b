// First: every console line of what follows (libraries included) is a line like the server's own (docs/decisions/0033).
import './json-console.ts';
import { buildApp } from './app.ts';
import { systemClock } from './clock.ts';
import { ConfigError, loadConfig, passkeysUnavailable, type Config } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { openPostgres } from './db/postgres.ts';
import { consoleMailer, smtpMailer } from './mail/mailer.ts';
import { announcements, failures, lineFormatFor, socketListening } from './log.ts';

// JSON lines, or text on a terminal (log.ts, docs/decisions/0033); these whatever LOG_LEVEL is.
const out = announcements();
const fail = failures();

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      fail.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const db = await openDatabase(config);
  await migrate(db);
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : consoleMailer();
  const readDb = config.databaseReadUrl ? openPostgres(config.databaseReadUrl, { preparedStatements: config.databasePreparedStatements }) : undefined;
  const { app, close, probes } = await buildApp({
    config,
    db,
    ...(readDb ? { readDb } : {}),
    clock: systemClock,
    mailer,
    logger: { level: config.logLevel, format: lineFormatFor(1, config.logFormat ?? undefined) },
  });

  // Issue 23: readiness turns false at once; after SHUTDOWN_DELAY_MS (the load balancer's check
  // interval) the server stops listening, the requests under way finish (DRAIN_MS at most), the
  // pool closes, and the process ends with 0.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    probes.shuttingDown();
    app.log.info(`${signal}: shutting down`);
    new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs))
      .then(() => close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          fail.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  // The socket's own address (127.0.0.1) is at debug: the one address to open is PUBLIC_URL's.
  await app.listen({ host: config.host, port: config.port, listenTextResolver: socketListening });
  out.info(`Latchkey is running at ${config.publicUrl}`);
  const noPasskeys = passkeysUnavailable(config);
  if (noPasskeys) out.warn(`Warning: ${noPasskeys}`);
}

main().catch((error: unknown) => {
  fail.error(`Latchkey could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
