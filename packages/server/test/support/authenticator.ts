import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software passkey authenticator (ES256, "none" attestation, user verified), so the server suite
 * can run the WebAuthn ceremonies over HTTP without a browser. It answers what
 * @simplewebauthn/browser would post: a RegistrationResponseJSON or an AuthenticationResponseJSON.
 */
export interface Passkey {
  id: string;
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
  kind?: AuthenticatorKind;
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | Buffer | string) => createHash('sha256').update(data).digest();

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

// Flags: UP (user present) 0x01, UV (user verified) 0x04, AT (attested credential data) 0x40.
const UP_UV = 0x05;
const UP_UV_AT = 0x45;
// BE (backup eligible) 0x08, BS (backed up) 0x10: a synced passkey provider's (docs/decisions/0050).
const BE_BS = 0x18;

/** How the software authenticator behaves: a synced passkey (BE, BS), its transports, how it is attached. */
export interface AuthenticatorKind {
  synced?: boolean;
  transports?: string[];
  /** `cross-platform`: a phone reached by the cross-device (hybrid) flow, or a security key. */
  attachment?: 'platform' | 'cross-platform';
}

export interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

export interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: Array<{ id: string }>;
}

/** navigator.credentials.create: a new credential for `options.user` at `origin`. */
export function createPasskey(
  options: CreationOptions,
  origin: string,
  kind: AuthenticatorKind = {},
): { passkey: Passkey; response: Record<string, unknown> } {
  const rpId = options.rp.id ?? new URL(origin).hostname;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const coseKey = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, Buffer.from(jwk.x as string, 'base64url')],
    [-3, Buffer.from(jwk.y as string, 'base64url')],
  ]);
  const credentialId = randomBytes(16);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credentialId.length);
  const authData = Buffer.concat([
    sha256(rpId),
    Buffer.from([UP_UV_AT | (kind.synced ? BE_BS : 0)]),
    counterBytes(0),
    Buffer.alloc(16), // AAGUID
    idLength,
    credentialId,
    Buffer.from(isoCBOR.encode(coseKey)),
  ]);
  const attestationObject = isoCBOR.encode(
    new Map<string, unknown>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', new Uint8Array(authData)],
    ]) as Parameters<typeof isoCBOR.encode>[0],
  );
  const id = b64url(credentialId);
  return {
    passkey: { id, userHandle: options.user.id, privateKey, counter: 0, kind },
    response: {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: kind.transports ?? ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: kind.attachment ?? 'platform',
    },
  };
}

/** navigator.credentials.get with this passkey (whatever allowCredentials says: a client may ignore it). */
export function usePasskey(passkey: Passkey, options: RequestOptions, origin: string): Record<string, unknown> {
  const rpId = options.rpId ?? new URL(origin).hostname;
  passkey.counter += 1;
  const authData = Buffer.concat([sha256(rpId), Buffer.from([UP_UV | (passkey.kind?.synced ? BE_BS : 0)]), counterBytes(passkey.counter)]);
  const data = clientData('webauthn.get', options.challenge, origin);
  const signature = createSign('sha256')
    .update(Buffer.concat([authData, sha256(data)]))
    .sign(passkey.privateKey);
  return {
    id: passkey.id,
    rawId: passkey.id,
    type: 'public-key',
    response: {
      clientDataJSON: b64url(data),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: passkey.userHandle,
    },
    clientExtensionResults: {},
    authenticatorAttachment: passkey.kind?.attachment ?? 'platform',
  };
}

/** The WebAuthn options a passkey page carries in its form's data-options attribute. */
export function pageOptions<T>(html: string): T {
  const m = /data-options="([^"]*)"/.exec(html);
  if (!m) throw new Error(`no passkey options on the page:\n${html}`);
  const json = (m[1] as string).replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string,
  );
  return JSON.parse(json) as T;
}
