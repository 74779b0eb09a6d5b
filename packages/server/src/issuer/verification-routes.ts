import { signingKeyGraceSeconds } from '@latchkey/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { issuerAt } from './custom-domains.ts';
import type { EventOrigin, IssuerEvents } from '../events/end-user-event.ts';
import { findIssuerState } from './issuer-state.repository.ts';
import { issuerSigningKeys } from '../oidc/keys.ts';
import type { ProjectClients } from './project-applications.ts';
import { readVerificationRequest } from './verification-request.ts';
import { confirmVerification, findVerificationByToken } from '../people/identity-verifications.repository.ts';
import { METHOD_NAMES, verificationEvent, verificationRefs, verificationSettingsOf, withParameter } from './verification.ts';
import { VERIFICATION_SCRIPT, VERIFICATION_SCRIPT_PATH } from '../oidc/pages/verification-views.ts';

/**
 * The issuer's side of Custom verification (docs/decisions/0018): the project's backend confirms a
 * request with `POST {issuer}/verification/confirm`, authenticated as one of the project's
 * applications (HTTP Basic with its client id and secret, RFC 6749 §2.3.1), and is told where to
 * send the user. Also the waiting page's script, served on the issuer's origin.
 */

type ProjectRequest = FastifyRequest<{ Params: { project: string }; Body: unknown }>;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const refusal = (status: number, error: string, description: string): Answer => ({ status, body: { error, error_description: description } });

/** `Basic base64(urlencoded id ":" urlencoded secret)`, or null. */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | null {
  const m = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const form = (part: string) => decodeURIComponent(part.replaceAll('+', ' '));
    return { clientId: form(decoded.slice(0, colon)), clientSecret: form(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

export async function registerVerificationRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; secretBox: SecretBox; clients: ProjectClients; publicUrl: string; eventsOf(projectId: string): IssuerEvents },
): Promise<void> {
  const { db, clock, secretBox, clients, publicUrl } = deps;

  await app.register(async (routes) => {
    routes.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true } as typeof route.schema;
    });
    routes.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    /** The project whose issuer this request reached (its custom domain when it has one), or null. */
    async function issuerOf(request: ProjectRequest) {
      const state = await findIssuerState(db, request.params.project);
      const at = state ? issuerAt(request.raw, state, publicUrl) : null;
      return state && at && 'site' in at ? { state, site: at.site } : null;
    }

    routes.get(`/p/:project${VERIFICATION_SCRIPT_PATH}`, async (request: ProjectRequest, reply) => {
      if (!(await issuerOf(request))) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
      return reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(VERIFICATION_SCRIPT);
    });

    routes.post('/p/:project/verification/confirm', async (request: ProjectRequest, reply: FastifyReply) => {
      const answer = await confirm(request);
      if (answer.status === 401) reply.header('WWW-Authenticate', 'Basic realm="verification", charset="UTF-8"');
      return reply.status(answer.status).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(answer.body);
    });

    async function confirm(request: ProjectRequest): Promise<Answer> {
      const found = await issuerOf(request);
      if (!found) return refusal(404, 'not_found', 'There is no issuer at this address');
      const { state, site } = found;
      const events = deps.eventsOf(state.projectId);
      const agent = request.headers['user-agent'];
      const credentials = basicCredentials(request.headers.authorization);
      const origin: EventOrigin = { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null, clientId: null };
      const failed = async (answer: Answer, reason: string, userId: string | null = null, clientId: string | null = null) => {
        const event = verificationEvent('failed', 'verification.failed', userId, METHOD_NAMES.fullCustom, { reason });
        await events.refusal({ ...origin, clientId }, event);
        return answer;
      };

      // The caller is an enabled application of an open project (verifyClientCredentials), of this project.
      if (!credentials || !(await clients.verifyClientCredentials(credentials.clientId, credentials.clientSecret))) {
        return failed(refusal(401, 'invalid_client', 'Client authentication failed'), 'invalid_client');
      }
      const { clientId } = credentials;
      if ((await clients.findClient(clientId))?.projectId !== state.projectId) {
        return failed(refusal(403, 'unauthorized_client', 'This application belongs to another project'), 'other_project', null, clientId);
      }

      const body = request.body as Record<string, unknown> | null | undefined;
      const token = typeof body === 'object' && body !== null ? body.request : undefined;
      if (typeof token !== 'string' || token === '') {
        return failed(refusal(400, 'invalid_request', 'The body names no verification request'), 'no_request', null, clientId);
      }
      const now = clock.now();
      const signingKeys = await issuerSigningKeys(
        db,
        secretBox,
        state.projectId,
        state.issuer.id_token_signing_alg,
        signingKeyGraceSeconds(state.issuer),
      );
      const claims = readVerificationRequest(token, { signingKeys, issuer: site.issuer, now });
      if (!claims) {
        return failed(
          refusal(400, 'invalid_request', 'The verification request is not valid here or has expired'),
          'invalid_request',
          null,
          clientId,
        );
      }
      const refs = verificationRefs(secretBox, state.projectId);
      const row = await findVerificationByToken(db, state.projectId, refs.token(claims.jti));
      // A request shown again was replaced by a newer one; only the newest one of an interaction counts.
      if (!row || row.method !== 'fullCustom' || row.identity !== claims.user_id || row.expiresAt.getTime() <= now.getTime()) {
        return failed(
          refusal(400, 'invalid_request', 'The verification request was replaced or has expired'),
          'unknown_request',
          claims.user_id,
          clientId,
        );
      }
      if (row.confirmedAt) {
        return failed(refusal(409, 'conflict', 'The verification request was confirmed already'), 'already_confirmed', claims.user_id, clientId);
      }
      const confirmed = await db.transaction(async (tx) => {
        if (!(await confirmVerification(tx, { projectId: state.projectId, tokenRef: row.tokenRef, by: clientId, now }))) return false;
        await events.record(
          tx,
          { ...origin, clientId },
          verificationEvent('success', 'verification.confirmed', row.identity, METHOD_NAMES.fullCustom),
        );
        return true;
      });
      if (!confirmed) {
        return failed(refusal(409, 'conflict', 'The verification request was confirmed already'), 'already_confirmed', claims.user_id, clientId);
      }
      // The user lands on the project's Custom Confirmation URL when it has one (which sends them on
      // to `continue_to`), else straight on the issuer's page that resumes the sign-in.
      const { confirmationURL } = verificationSettingsOf(state);
      const redirectTo = (confirmationURL ? withParameter(confirmationURL, 'continue_to', claims.continue_to) : null) ?? claims.continue_to;
      return { status: 200, body: { user_id: row.identity, identity_type: row.identityType, redirect_to: redirectTo } };
    }
  });
}
