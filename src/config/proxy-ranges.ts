/**
 * The entries `trust_proxy` takes, as Fastify's `trustProxy` (proxy-addr) reads them: an address,
 * a CIDR range (`10.0.0.0/8`, `fd00::/8`), an IPv4 address with a netmask (`10.0.0.0/255.0.0.0`),
 * or one of proxy-addr's named ranges. Checked with the rest of the configuration, so that a
 * misspelt range is reported by key at start rather than thrown by Fastify as it builds the app.
 */
import { isIP } from 'node:net';

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function isProxyRange(entry: string): boolean {
  if (NAMED.has(entry)) return true;
  const [address = '', mask, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (mask === undefined) return true;
  if (/^\d{1,3}$/.test(mask)) return Number(mask) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(mask) === 4;
}
