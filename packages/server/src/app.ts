import fastifyCookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { systemClock, type Clock } from './clock.ts';
import { isSecure, type Config } from './config.ts';
import type { SecretBox } from './crypto.ts';
import type { Db } from './db/db.ts';
import { createRequestAuthenticator, type BearerAuthenticator } from './http/auth.ts';
import { cookieOptions } from './http/cookies.ts';
import { installErrorHandler } from './http/errors.ts';
import { answerFrameworkError, installInputGuard } from './http/input-guard.ts';
import { inProcessFetch } from './http/in-process-fetch.ts';
import { createOutgoingClient, literalAddressRefused, type OutgoingClient } from './http/outgoing.ts';
import { networksOf } from './networks.ts';
import { installOpenApi } from './http/openapi.ts';
import { inRequestScope, requestIdOf, serverLog, type LineFormat } from './log.ts';
import { registerProbes, type Probes } from './http/probes.ts';
import { createMetrics, measuredDb, measuredMailer, registerMetrics, type Metrics } from './http/metrics.ts';
import { rateLimitObservers } from './db/rate-limits.repository.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installCompression } from './http/compression.ts';
import { installStaticConsole, CONSOLE_DIST } from './http/static-console.ts';
import { zodValidatorCompiler } from './http/validation.ts';
import { registerIdpRoutes } from './idp/idp.routes.ts';
import {
  builtInSignInProvider,
  CONSOLE_CLIENT_ID,
  CONSOLE_ISSUER,
  createConsoleProvider,
  idpIssuer,
  loadConsoleIssuerKeys,
  type SignInProvider,
} from './idp/console-issuer.ts';
import { createLoginCodes, type LoginCodes } from './oidc/login-codes.service.ts';
import { registerSignInStylesheet } from './oidc/mount.ts';
import { deleteExpiredOidcPayloads, endSessionsOfAccount } from './oidc/payloads.repository.ts';
import { deleteRetiredSigningKeys } from './oidc/keys.ts';
import { registerPasskeyAssets } from './oidc/passkeys.ts';
import { consoleMailer, type Mailer } from './mail/mailer.ts';
import { applicationNamesOf } from './modules/apps/apps.repository.ts';
import { createAuditHook, type AuditHook } from './modules/audit/audit.service.ts';
import { ensureEventPartitions } from './modules/audit/event-partitions.ts';
import { webhookKind } from './modules/webhooks/webhook-delivery.ts';
import { WEBHOOK_KIND } from './events/audit-events.repository.ts';
import { createOutbox, type Outbox } from './outbox/outbox.ts';
import { createImportWorker, type ImportWorker } from './modules/user-imports/import-worker.ts';
import { sealStoredPushKeys } from './modules/projects/push-keys.ts';
import { deleteExpiredImportedPasswords } from './people/imported-passwords.repository.ts';
import { erasureScrubber } from './people/erasure-scrub.ts';
import { pseudonymiseLegacyIdentities } from './people/legacy-identities.ts';
import { serviceTokenAuthenticator } from './modules/accounts/service-token-auth.ts';
import { openIdSignInProvider } from './modules/session/sign-in-provider.ts';
import type { AppsService } from './modules/apps/apps.service.ts';
import type { ProjectsService } from './modules/projects/projects.service.ts';
import type { SessionService } from './modules/session/session.service.ts';
import appsModule from './modules/apps/apps.module.ts';
import projectsModule from './modules/projects/projects.module.ts';
import sessionModule from './modules/session/session.module.ts';
import { loadApiModules, registerApiEndpoints, type ModuleContext } from './modules/api-module.ts';
import type { BoundEndpoint } from './http/endpoints.ts';
import { issuerSite, ownHostOrigin, routeCustomDomains, type IssuerHosts } from './issuer/custom-domains.ts';
import { registerProjectIssuerRoutes, type ProjectIssuer } from './issuer/issuer.routes.ts';
import { registerAccountPages } from './account/account-pages.ts';
import { deleteEndedRegistrationCodes } from './people/registration-codes.repository.ts';
import { deleteExpiredVerifications } from './people/identity-verifications.repository.ts';
import { BACKCHANNEL_LOGOUT_KIND, backchannelLogoutKind } from './people/backchannel-logouts.ts';
import { secretBoxFor } from './secret-key.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  /** A read replica (DATABASE_READ_URL) for the reads that may be a few seconds stale; default: `db`. */
  readDb?: Db;
  clock?: Clock;
  mailer?: Mailer;
  /** The server's log (log.ts `serverLog`): its level, and where (a stream, always JSON) or how (`format`) it writes; false (tests) keeps quiet. */
  logger?: { level: string; stream?: DestinationStream; format?: LineFormat } | false;
  /** Service-account tokens (not built yet; see http/auth.ts). */
  bearer?: BearerAuthenticator;
  /** Where the built console is; tests point elsewhere. */
  consoleDist?: string;
  /** Records console writes; defaults to the audit_events table. */
  audit?: AuditHook;
  /** Hashing and encryption under the master key; defaults to SECRET_KEY or {DATA_DIR}/secret.key. */
  secretBox?: SecretBox;
  /** Calls out to addresses projects registered (the outbox's messages); defaults to the guarded client under OUTGOING_ALLOWED_NETWORKS. */
  outgoing?: OutgoingClient;
}

export interface LatchkeyApp {
  app: FastifyInstance;
  services: {
    sessions: SessionService;
    projects: ProjectsService;
    apps: AppsService;
    loginCodes: LoginCodes | null;
    /** Seal stored secrets and key lookups with it (README "Secrets and backups"). */
    secretBox: SecretBox;
    /** The deliverer of back-channel logout notices and webhook messages (it polls by itself; `deliverDue` runs a round now). */
    outbox: Outbox;
    /** The user import worker (docs/decisions/0052; it polls by itself; `runNow` runs a round now, `stop`/`start` as at a shutdown). */
    userImports: ImportWorker;
  };
  /** Readiness (GET /readyz) turns false: call it first when shutting down. */
  probes: Probes;
  /**
   * Stops taking connections, lets the requests under way finish for at most `drainMs` (then
   * closes what is left), and closes the database.
   */
  close(drainMs?: number): Promise<void>;
}

/** How long a shutdown waits for the requests under way by default. */
export const DRAIN_MS = 10_000;

const HOUSEKEEPING_EVERY_MS = 10 * 60 * 1000;

/** What start-up does to the stored data before serving: what a migration could not do, and what must exist ahead. */
async function upgradeStoredData(app: FastifyInstance, d: { db: Db; secretBox: SecretBox; clock: Clock; config: Config }): Promise<void> {
  await sealStoredPushKeys(d.db, d.secretBox, app.log);
  // What migration 0034 could not hash: identities of no person, named by their pseudonym (docs/decisions/0046).
  await pseudonymiseLegacyIdentities(d.db, d.secretBox);
  // Events are written into monthly partitions made ahead (docs/decisions/0014).
  await ensureEventPartitions(d.db, d.clock.now(), d.config.eventRetentionMonths);
}

/**
 * The composition root (DESIGN "src/app.ts"): everything is wired here from what is passed in, so a
 * test builds the real app on a real database and swaps only what leaves the machine (mail).
 */
export async function buildApp(deps: AppDeps): Promise<LatchkeyApp> {
  const { config } = deps;
  // Issue 23: every statement timed and every mail counted for GET /metrics (docs/decisions/0032).
  const metrics = createMetrics();
  const db = measuredDb(deps.db, metrics);
  // docs/decisions/0035: the audit log and its export, usage and search may read a replica.
  const readDb = deps.readDb ? measuredDb(deps.readDb, metrics) : db;
  const clock = deps.clock ?? systemClock;
  const mailer = measuredMailer(deps.mailer ?? consoleMailer(), metrics);
  const countRefusal = (limit: string) => metrics.rateLimitRefusals.inc({ limit });
  rateLimitObservers.add(countRefusal);
  // Messages this instance queued go out at once (webhook messages soon after their event commits),
  // not at the next poll: the outbox, made below once its kinds can be, takes these over.
  let webhooksQueued = (): void => undefined;
  let logoutNoticesQueued = (): void => undefined;
  const audit = deps.audit ?? createAuditHook(clock, { webhooksQueued: () => webhooksQueued() });
  const cookies = cookieOptions(config);
  const secretBox = deps.secretBox ?? secretBoxFor(config);

  const { app, probes } = await httpApp(deps, { db, secretBox, metrics });
  app.addHook('onClose', async () => {
    rateLimitObservers.delete(countRefusal);
  });
  await upgradeStoredData(app, { db, secretBox, clock, config });

  registerSignInStylesheet(app);
  registerPasskeyAssets(app);
  // The OpenID provider the console signs in through: external when configured, else built in.
  const { signIn, loginCodes } = await consoleSignIn(app, { config, db, clock, mailer, secretBox });

  // A project's issuer address, as its provider is built (docs/decisions/0016: its custom domain's
  // origin when it has one; 0047: else its own host's): GET issuer and an application's keys answer the same.
  const issuerAddress = (projectId: string, hosts: IssuerHosts) => issuerSite(config.publicUrl, { projectId, ...hosts }).issuer;
  // Every call out to an address a project registered goes through the guarded client (http/outgoing.ts).
  const allowedNetworks = networksOf(config.outgoingAllowedNetworks);
  const outgoing = deps.outgoing ?? createOutgoingClient({ allowedNetworks: config.outgoingAllowedNetworks });
  // The deliverers are made below, from the issuer, which needs the apps module: the modules' nudges reach them once they exist.
  let nudgeWebhookDelivery = (): void => undefined;
  // Imports stored by any instance are imported by any instance's worker, a chunk at a time (docs/decisions/0052).
  const userImports = startImportWorker(app, { db, clock, audit });
  const ctx: ModuleContext = {
    config,
    db,
    readDb,
    clock,
    mailer,
    audit,
    secretBox,
    outgoing,
    refusedHost: (host) => literalAddressRefused(host, allowedNetworks) === true,
    cookies,
    signIn,
    issuerAddress,
    ownHostOf: (projectId) => ownHostOrigin(config.publicUrl, config.issuerDomain, projectId),
    logoutNoticesQueued: () => logoutNoticesQueued(),
    webhookQueued: () => nudgeWebhookDelivery(),
    userImportQueued: () => userImports.nudge(),
    warn: (error, message) => app.log.warn({ err: error }, message),
  };
  // Not by convention: these three modules' services are used outside their endpoints too — the
  // endpoint guard (sessions, projects, apps), the project issuer (apps are its clients), housekeeping
  // (sessions) and the callers of buildApp. Every other module is found by its folder, below.
  const sessions = sessionModule.services(ctx);
  const projectsServices = projectsModule.services(ctx);
  const { projects } = projectsServices;
  const apps = appsModule.services(ctx);
  const endpoints: BoundEndpoint[] = [
    ...sessionModule.endpoints(sessions, ctx),
    ...projectsModule.endpoints(projectsServices, ctx),
    ...appsModule.endpoints(apps, ctx),
  ];
  const wired = new Set<unknown>([sessionModule, projectsModule, appsModule]);
  // Every project is an OpenID Connect issuer (issue 8): its clients are the project's applications.
  const issuer = await registerProjectIssuerRoutes(app, {
    db,
    clock,
    mailer,
    secretBox,
    clients: apps,
    publicUrl: config.publicUrl,
    warn: (error) => app.log.warn({ err: error }, 'back-channel logout notice not queued'),
    metrics,
    webhooksQueued: () => webhooksQueued(),
    logoutNoticesQueued: () => logoutNoticesQueued(),
  });
  // One outbox (docs/decisions/0045): any instance delivers back-channel logout notices and webhook
  // messages through the guarded client, each kind as its feature declares it.
  const outbox = startOutbox(app, { db, clock, outgoing, secretBox, issuer });
  webhooksQueued = () => outbox.nudgeSoon(WEBHOOK_KIND);
  logoutNoticesQueued = () => outbox.nudge(BACKCHANNEL_LOGOUT_KIND);
  // The end user's own page at the issuer (issue 24, docs/decisions/0040).
  await registerAccountPages(app, {
    db,
    clock,
    secretBox,
    mailer,
    publicUrl: config.publicUrl,
    providerFor: issuer.providerFor,
    eventsOf: issuer.eventsOf,
    logoutNoticesQueued,
    applicationNames: (projectId, clientIds) => applicationNamesOf(db, projectId, clientIds),
  });
  nudgeWebhookDelivery = () => outbox.nudge(WEBHOOK_KIND);
  // Every other module of the management API, by its folder (modules/<m>/<m>.module.ts).
  for (const module of (await loadApiModules()).values()) {
    if (!wired.has(module)) endpoints.push(...module.endpoints(module.services(ctx), ctx));
  }

  app.decorate('endpointGuard', {
    authenticate: createRequestAuthenticator({ sessions, bearer: deps.bearer ?? serviceTokenAuthenticator({ db, clock, secretBox }), cookies }),
    projectExists: projects.projectExists,
    projectOfApplication: apps.projectOfApplication,
  });
  registerApiEndpoints(app, endpoints);
  await installStaticConsole(app, deps.consoleDist ?? CONSOLE_DIST);

  startHousekeeping(app, { config, db, clock, mailer, secretBox, sessions, outbox });

  await app.ready();
  return { app, services: { sessions, projects, apps, loginCodes, secretBox, outbox, userImports }, probes, close: closer(app, db, readDb) };
}

/**
 * The Fastify instance every route is registered on: request ids and their log line, validation and
 * serialisation by the contract's schemas, cookies, security headers, the error handler, the input
 * guard, the custom domains' routing, the probes, the metrics and the OpenAPI document.
 */
async function httpApp(deps: AppDeps, p: { db: Db; secretBox: SecretBox; metrics: Metrics }): Promise<{ app: FastifyInstance; probes: Probes }> {
  const { config } = deps;
  const { db, secretBox, metrics } = p;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: asFastifyLogger(serverLog(deps.logger)) } : { logger: false }),
    // One line per request would drown the sign-in code lines of the console mailer.
    // Each request's own line (below, at debug) names its route template, never its URL: a path or
    // a query can carry an interaction id or a one-time link's token (docs/decisions/0033).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    bodyLimit: 1024 * 1024,
    // The provider is mounted on /idp and must see its own URLs unchanged.
    routerOptions: { ignoreTrailingSlash: false },
    // request.ip believes X-Forwarded-For only from these proxies (TRUST_PROXY); none by default.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // A path the router cannot even decode is answered like any other unclean input.
    frameworkErrors: answerFrameworkError,
    // Each request's id: a trusted proxy's X-Request-Id, else a new one; in its log lines and its answer.
    genReqId: requestIdOf(config.trustProxy),
  });
  // Every line written while serving a request names it, whoever writes it (log.ts): from here on,
  // and again once the body is read (its stream's events come from outside the request's context).
  app.addHook('onRequest', (request, _reply, done) => inRequestScope(request.id, done));
  app.addHook('preValidation', (request, _reply, done) => inRequestScope(request.id, done));
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    request.log.debug({ method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request answered');
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifyCookie);
  app.decorateRequest('actor', null);
  installSecurityHeaders(app, { https: isSecure(config) });
  installCompression(app);
  installErrorHandler(app);
  installInputGuard(app);
  // Before any route is registered: a project's custom domain reaches its issuer only (docs/decisions/0016).
  routeCustomDomains(app, { db, publicUrl: config.publicUrl });
  // GET /healthz and /readyz for load balancers, GET /metrics for Prometheus (issue 23).
  const probes = registerProbes(app, { db, secretBox });
  registerMetrics(app, metrics, config.metricsToken);
  await installOpenApi(app, config.publicUrl);
  return { app, probes };
}

/** pino's logger as the type every route and plugin of the app is declared with. */
const asFastifyLogger = (logger: FastifyBaseLogger): FastifyBaseLogger => logger;

/** How the console signs in: through an external OpenID provider (OIDC_ISSUER), or the built-in one under /idp. */
async function consoleSignIn(
  app: FastifyInstance,
  p: { config: Config; db: Db; clock: Clock; mailer: Mailer; secretBox: SecretBox },
): Promise<{ signIn: SignInProvider; loginCodes: LoginCodes | null }> {
  const { config, db, clock, mailer, secretBox } = p;
  if (config.oidc) return { signIn: openIdSignInProvider(config.oidc), loginCodes: null };
  {
    const keys = await loadConsoleIssuerKeys(db, secretBox);
    const provider = createConsoleProvider({ db, secretBox, keys, publicUrl: config.publicUrl });
    const loginCodes = createLoginCodes({ db, clock, mailer, secretBox }, CONSOLE_ISSUER);
    await registerIdpRoutes(app, { db, clock, secretBox, provider, loginCodes, publicUrl: config.publicUrl });
    const signIn = builtInSignInProvider(
      openIdSignInProvider({
        issuer: idpIssuer(config.publicUrl),
        clientId: CONSOLE_CLIENT_ID,
        clientSecret: keys.clientSecret,
        fetch: inProcessFetch(app, config.publicUrl),
      }),
      (accountId) => endSessionsOfAccount(db, secretBox, CONSOLE_ISSUER, accountId),
    );
    return { signIn, loginCodes };
  }
}

/** Expired sessions, sign-in attempts, codes and provider artefacts are swept now and then. */
function startHousekeeping(
  app: FastifyInstance,
  p: { config: Config; db: Db; clock: Clock; mailer: Mailer; secretBox: SecretBox; sessions: { purgeExpired(): Promise<void> }; outbox: Outbox },
): void {
  const { config, db, clock, mailer, secretBox, sessions, outbox } = p;
  const scrub = erasureScrubber(db, () => clock.now());
  const housekeeping = setInterval(() => {
    void (async () => {
      await sessions.purgeExpired();
      // Codes and limits of the console's provider and of every project's issuer share their tables.
      await createLoginCodes({ db, clock, mailer, secretBox }, CONSOLE_ISSUER).purgeExpired();
      await deleteExpiredVerifications(db, clock.now());
      await deleteExpiredOidcPayloads(db);
      await deleteRetiredSigningKeys(db);
      await ensureEventPartitions(db, clock.now(), config.eventRetentionMonths);
      await deleteEndedRegistrationCodes(db, clock.now());
      // docs/decisions/0052: an imported password hash lives its project's chosen days at most.
      await deleteExpiredImportedPasswords(db, clock.now());
      await outbox.housekeeping();
      // After the sweeps above, so what they deleted goes from the files too (docs/decisions/0046).
      await scrub();
    })().catch((error: unknown) => app.log.warn({ err: error }, 'housekeeping failed'));
  }, HOUSEKEEPING_EVERY_MS);
  housekeeping.unref();
  app.addHook('onClose', async () => clearInterval(housekeeping));
}

/** The one outbox, delivering every kind its features declare (docs/decisions/0045), started and stopped with the app. */
function startOutbox(
  app: FastifyInstance,
  p: { db: Db; clock: Clock; outgoing: OutgoingClient; secretBox: SecretBox; issuer: ProjectIssuer },
): Outbox {
  const { db, clock, outgoing, secretBox, issuer } = p;
  const outbox = createOutbox({
    db,
    clock,
    outgoing,
    kinds: [backchannelLogoutKind({ sign: issuer.signLogoutToken, eventsOf: issuer.eventsOf }), webhookKind({ clock, secretBox })],
    warn: (error) => app.log.warn({ err: error }, 'outbox delivery failed'),
  });
  outbox.start();
  app.addHook('onClose', () => outbox.stop());
  return outbox;
}

/**
 * The import worker, started and stopped with the app like the outbox: at close, after the requests
 * under way (an upload storing its file) are done, its job under way is released for another instance.
 */
function startImportWorker(app: FastifyInstance, p: { db: Db; clock: Clock; audit: AuditHook }): ImportWorker {
  const worker = createImportWorker({ ...p, warn: (error) => app.log.warn({ err: error }, 'user import round failed') });
  worker.start();
  app.addHook('onClose', () => worker.stop());
  return worker;
}

/**
 * Stops taking connections, lets the requests under way finish for at most `drainMs`, and closes
 * the databases: Fastify's close stops listening, closes idle keep-alive connections and waits for
 * the requests under way; those still running after the drain are cut.
 */
function closer(app: FastifyInstance, db: Db, readDb: Db): (drainMs?: number) => Promise<void> {
  return async (drainMs = DRAIN_MS) => {
    const cut = setTimeout(() => app.server.closeAllConnections(), drainMs);
    try {
      await app.close();
    } finally {
      clearTimeout(cut);
    }
    await db.close();
    if (readDb !== db) await readDb.close();
  };
}
