/**
 * The identity key: 32 bytes from which every secret of the identity operations is derived (the
 * sealing of the registry, its lookup hashes, the sealing of the tokens' field keys). It comes
 * from `identity.key` (base64; set it the same on every node of a cluster) or from the key file,
 * which is created on first use, readable by its owner only.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../../config/index.js';

const KEY_BYTES = 32;

export interface IdentityKeySource {
  key?: string;
  key_file: string;
}

function decode(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES) {
    throw new ConfigError(`${where}: must be ${KEY_BYTES} bytes in base64 (got ${key.length} bytes)`);
  }
  return key;
}

export function loadIdentityKey(source: IdentityKeySource): Buffer {
  if (source.key) return decode(source.key, 'identity.key');
  try {
    return decode(readFileSync(source.key_file, 'utf8'), source.key_file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(source.key_file), { recursive: true });
  const key = randomBytes(KEY_BYTES);
  // 'wx': two processes starting together must not each write their own key.
  try {
    writeFileSync(source.key_file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return decode(readFileSync(source.key_file, 'utf8'), source.key_file);
  }
}
