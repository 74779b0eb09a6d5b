import type { PasskeyEnrollment } from '@latchkey/domain';
import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import { passkeySteps } from '../oidc/passkey-steps/passkey-steps.ts';
import type { LoginMethods, PasskeyStore, QuickCodeStore, RecoveryCodeStore, RelyingParty } from '../oidc/passkeys.ts';
import type { PasskeySteps } from '../oidc/pages/site.ts';
import type { PageBrand } from '../oidc/pages/views.ts';
import { deviceUseChange, findDevice, insertDevice, markDeviceUsed, userDevices, userWithDevices } from '../people/devices.repository.ts';
import { fallbackSignInsOf, findProjectUser, findProjectUserByEmail, findProjectUserByIdentity } from '../people/end-users.repository.ts';
import {
  countRegistrationCodeTry,
  findRegistrationCode,
  replaceRegistrationCode,
  useRegistrationCode,
} from '../people/registration-codes.repository.ts';

/** A project's passkeys are its devices (docs/decisions/0013), each of one of its end users. */
function projectDevices(db: Db, projectId: string): PasskeyStore {
  return {
    userOf: (identity) => findProjectUserByIdentity(db, projectId, identity),
    passkeysOf: (userId) => userDevices(db, projectId, userId),
    async userWithPasskeys(identity) {
      const found = await userWithDevices(db, projectId, identity);
      return found && { id: found.id, passkeys: found.devices };
    },
    find: (id) => findDevice(db, projectId, id),
    identityOf: async (userId) => (await findProjectUser(db, projectId, userId))?.identity ?? null,
    markUsed: (tx, p) => markDeviceUsed(tx, { projectId, ...p }),
    useChange: (p) => deviceUseChange({ projectId, ...p }),
    insert: (tx, p) => insertDevice(tx, { projectId, ...p }),
  };
}

/** A project's QuickCodes (docs/decisions/0017). */
function projectQuickCodes(db: Db, projectId: string): QuickCodeStore {
  return {
    userByEmail: (email) => findProjectUserByEmail(db, projectId, email),
    find: (userId) => findRegistrationCode(db, projectId, userId),
    countTry: (p) => countRegistrationCodeTry(db, { projectId, ...p }),
    use: (tx, p) => useRegistrationCode(tx, { projectId, ...p }),
    replace: (tx, p) => replaceRegistrationCode(tx, { projectId, ...p }),
  };
}

/** One project's passkey steps: its devices, its QuickCodes as it set them, its events. */
export function projectPasskeys(deps: {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  publicUrl: string;
  projectId: string;
  mountPath: string;
  brand: PageBrand;
  events: IssuerEvents;
  /** spec §3 enableRegistrationCode, limitRegCodeVerified. */
  quickCodes: { enabled: boolean; verifiedOnly: boolean };
  login: LoginMethods;
  /** docs/decisions/0047: the project's relying party, and whether it is its own (passkeys are then discoverable). */
  relyingParty: RelyingParty;
  discoverable: boolean;
  /** docs/decisions/0050: the project's passkeyEnrollment. */
  enrollment: PasskeyEnrollment;
  /** docs/decisions/0051: the project's emailRecoveryDelay (0: none), which holds the offer back. */
  emailRecoveryDelayMs: number;
  /** docs/decisions/0051: the project's recovery codes. */
  recoveryCodes: RecoveryCodeStore;
}): PasskeySteps {
  const { db, projectId, quickCodes, enrollment, emailRecoveryDelayMs } = deps;
  return passkeySteps({
    ...deps,
    enrollment: { ...enrollment, emailRecoveryDelayMs, fallbackSignIns: (userId) => fallbackSignInsOf(db, projectId, userId) },
    issuerKey: projectId,
    store: projectDevices(db, projectId),
    quickCodes: quickCodes.enabled
      ? { enabled: true, verifiedOnly: quickCodes.verifiedOnly, store: projectQuickCodes(db, projectId) }
      : { enabled: false },
  });
}
