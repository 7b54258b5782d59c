/**
 * One validated configuration object: a YAML file (`--config` or SWITCHYARD_CONFIG), then
 * environment overrides (SWITCHYARD_<KEY>, nested keys joined by `__`, e.g.
 * SWITCHYARD_OUTBOUND__ALLOW_PRIVATE=true), then command-line flags. Every problem is reported at
 * start, by key, before anything listens.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { checkSchema } from '../contract/validate.js';
import { isRecord } from '../contract/rules.js';
import { CHANNEL_TYPES, ConfigSchema, type ConfigInput, type Price } from './schema.js';
import { DEFAULT_PRICES } from './prices.js';
import { longestWait } from './longest-wait.js';
import { isProxyRange } from './proxy-ranges.js';

export interface Config extends Omit<ConfigInput, 'prices'> {
  public_base_url: string;
  database: { url: string; pool_size: number };
  blobs: ConfigInput['blobs'] & { dir: string };
  search: ConfigInput['search'] & { index_path: string };
  identity: ConfigInput['identity'] & { key_file: string };
  prices: Record<string, Price>;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Tree = Record<string, unknown>;

function readFile(file: string): Tree {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`config file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`config file ${file}: not valid YAML: ${(error as Error).message}`);
  }
  if (parsed == null) return {};
  if (!isRecord(parsed)) throw new ConfigError(`config file ${file}: must hold a mapping of keys`);
  return parsed;
}

function setPath(tree: Tree, path: string[], value: unknown): void {
  let node = tree;
  for (const key of path.slice(0, -1)) {
    if (!isRecord(node[key])) node[key] = {};
    node = node[key] as Tree;
  }
  node[path[path.length - 1] as string] = value;
}

function applyEnvironment(tree: Tree, env: NodeJS.ProcessEnv): void {
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith('SWITCHYARD_') || name === 'SWITCHYARD_CONFIG' || raw === undefined) continue;
    const path = name.slice('SWITCHYARD_'.length).toLowerCase().split('__');
    // YAML scalars, so that "true" and "8080" arrive as a boolean and a number.
    setPath(tree, path, parseYaml(raw));
  }
}

/** Rules between keys, which the schema cannot state. */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function crossChecks(input: ConfigInput): string[] {
  const problems: string[] = [];
  if (!input.workers.embedded && !input.redis.url) {
    problems.push('workers.embedded: false needs redis.url (API nodes and workers meet in Redis)');
  }
  const names = new Set<string>();
  input.channels.forEach((channel, i) => {
    if (names.has(channel.name))
      problems.push(`channels[${i}].name: ${channel.name} is used by another channel`);
    names.add(channel.name);
    const { needs, serves } = CHANNEL_TYPES[channel.type];
    if (needs && !channel[needs]) {
      problems.push(`channels[${i}].${needs}: is required for type ${channel.type}`);
    }
    if (!serves.includes(channel.capability)) {
      problems.push(`channels[${i}].capability: ${channel.type} channels serve ${serves.join(', ')} only`);
    }
  });
  if (Array.isArray(input.trust_proxy))
    input.trust_proxy.forEach((entry, i) => {
      if (!isProxyRange(entry))
        problems.push(
          `trust_proxy[${i}]: ${entry} is not an address, a CIDR range, loopback, linklocal or uniquelocal`,
        );
    });
  if (!isTimeZone(input.billing.time_zone))
    problems.push(
      `billing.time_zone: ${input.billing.time_zone} is not an IANA time zone (UTC, Europe/Paris, Asia/Shanghai…)`,
    );
  if (input.alerts.webhook_url !== undefined && input.alerts.webhook_secret === undefined)
    problems.push('alerts.webhook_secret: is required with alerts.webhook_url (alerts are signed)');
  const wait = longestWait(input);
  if (input.limits.hold_seconds <= wait.seconds)
    problems.push(
      `limits.hold_seconds: ${input.limits.hold_seconds} must be longer than the longest synchronous wait, ` +
        `${wait.seconds} s (${wait.key}): ` +
        'a hold that runs out while its request still waits is given back, and the request ends free',
    );
  return problems;
}

export interface LoadOptions {
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Command-line flags, as nested keys. */
  overrides?: Tree;
}

export function loadConfig(options: LoadOptions = {}): Config {
  const env = options.env ?? process.env;
  const file = options.file ?? env.SWITCHYARD_CONFIG;
  const tree = file ? readFile(file) : {};
  applyEnvironment(tree, env);
  for (const [key, value] of Object.entries(options.overrides ?? {})) {
    if (value !== undefined) setPath(tree, key.split('.'), value);
  }
  const violations = checkSchema(ConfigSchema, tree);
  if (violations.length > 0) {
    const where = file ? ` (${file} and SWITCHYARD_* variables)` : ' (SWITCHYARD_* variables)';
    throw new ConfigError(
      `invalid configuration${where}:\n${violations.map((v) => `  ${v.field}: ${v.rule}`).join('\n')}`,
    );
  }
  const input = tree as unknown as ConfigInput;
  const problems = crossChecks(input);
  if (problems.length > 0)
    throw new ConfigError(`invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  const dataDir = resolve(input.data_dir);
  return {
    ...input,
    data_dir: dataDir,
    public_base_url: (input.public_base_url ?? `http://${input.host}:${input.port}`).replace(/\/+$/, ''),
    database: { ...input.database, url: input.database.url ?? `sqlite:${resolve(dataDir, 'switchyard.db')}` },
    blobs: { ...input.blobs, dir: resolve(input.blobs.dir ?? resolve(dataDir, 'blobs')) },
    search: {
      ...input.search,
      index_path: resolve(input.search.index_path ?? resolve(dataDir, 'search-index.db')),
    },
    identity: {
      ...input.identity,
      key_file: resolve(input.identity.key_file ?? resolve(dataDir, 'identity.key')),
    },
    prices: { ...DEFAULT_PRICES, ...input.prices },
  };
}
