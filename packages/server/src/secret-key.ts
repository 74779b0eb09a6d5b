import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.ts';
import { createSecretBox, SECRET_KEY_BYTES, type SecretBox } from './crypto.ts';

export const SECRET_KEY_FILE = 'secret.key';

export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/**
 * The master key (README "Secrets and backups"): SECRET_KEY when set, else `{DATA_DIR}/secret.key`,
 * created on first start with mode 0600. A key file others can read is refused, as ssh refuses a
 * private key anyone may read: the database and its key would then leak together.
 */
export function readSecretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): Buffer {
  if (config.secretKey) return config.secretKey;
  const path = join(config.dataDir, SECRET_KEY_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(config.dataDir, { recursive: true });
    try {
      // wx: two instances starting together on one folder must not overwrite each other's key.
      writeFileSync(path, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (raced) {
      if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
    }
    text = readFileSync(path, 'utf8');
  }
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
    throw new SecretKeyError(`${path} may be read by other users; run: chmod 600 ${path}`);
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== SECRET_KEY_BYTES) throw new SecretKeyError(`${path} must hold base64 of ${SECRET_KEY_BYTES} bytes`);
  return key;
}

export function secretBoxFor(config: Pick<Config, 'secretKey' | 'secretKeyPrevious' | 'dataDir'>): SecretBox {
  return createSecretBox(readSecretKey(config), config.secretKeyPrevious ? [config.secretKeyPrevious] : []);
}
