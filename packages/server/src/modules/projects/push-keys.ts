import type { ProjectSettings } from '@latchkey/domain';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { listPushPlatforms, lockPushPlatforms, replacePushPlatformsKeepingVersion } from './projects.repository.ts';

type PushPlatform = ProjectSettings['pushOptions']['platforms'][number];

/** What a push key is sealed to: its project and platform, so it opens nowhere else. */
export function pushKeyContext(projectId: string, platform: string): string {
  return `project:${projectId}:push:${platform}`;
}

/**
 * A push private key sent in a write is sealed before it is stored (issue 7, defect 8); the
 * document never holds it in plain text, so a copy of the database (or a dead row version after
 * the key is removed) yields nothing usable. An empty key means "keep the stored one"
 * (keepStoredSecrets), which is already sealed.
 */
export function sealPushKeys(box: Pick<SecretBox, 'seal'>, projectId: string, settings: ProjectSettings): ProjectSettings {
  const platforms = settings.pushOptions.platforms.map((p) =>
    p.config === '' ? p : { ...p, config: box.seal(p.config, pushKeyContext(projectId, p.name)) },
  );
  return { ...settings, pushOptions: { ...settings.pushOptions, platforms } };
}

/** A stored key that start-up must seal: plain text from before keys were sealed, or sealed under SECRET_KEY_PREVIOUS. */
function needsSealing(box: SecretBox, config: unknown): config is string {
  return typeof config === 'string' && config !== '' && (!box.isSealed(config) || box.isStale(config));
}

export interface PushKeyWarnings {
  warn(details: object, message: string): void;
}

/**
 * Start-up pass over stored push keys (README "Secrets and backups"): a key an earlier version
 * stored in plain text is sealed, and one sealed under the previous master key is sealed again
 * under the current one, so it still opens once SECRET_KEY_PREVIOUS is gone. The project's version
 * and ETag stay: no reader sees a difference. Each project is redone under its row lock from what
 * is stored then, so instances starting together seal each key once. A key no known master key
 * opens is left as it is (a lost key: the admin enters it again; a forgotten
 * SECRET_KEY_PREVIOUS: the next start with it seals it), with a warning.
 */
export async function sealStoredPushKeys(db: Db, box: SecretBox, log: PushKeyWarnings): Promise<void> {
  for (const { id, platforms } of await listPushPlatforms(db)) {
    if (!platforms.some((p) => needsSealing(box, p.config))) continue;
    await db.transaction(async (tx) => {
      const stored = await lockPushPlatforms(tx, id);
      let changed = false;
      const sealed = stored.map((p): PushPlatform => {
        if (!needsSealing(box, p.config)) return p;
        const context = pushKeyContext(id, p.name);
        let plain = p.config;
        if (box.isSealed(p.config)) {
          try {
            plain = box.open(p.config, context);
          } catch {
            log.warn(
              { projectId: id, platform: p.name },
              'a push key cannot be opened with this SECRET_KEY (or {DATA_DIR}/secret.key): set the key it was sealed with as SECRET_KEY_PREVIOUS, or enter the push key again',
            );
            return p;
          }
        }
        changed = true;
        return { ...p, config: box.seal(plain, context) };
      });
      if (changed) await replacePushPlatformsKeepingVersion(tx, id, sealed);
    });
  }
}
