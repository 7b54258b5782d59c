/**
 * `switchyard identity enroll|update|remove|list|key`: the operator's side of the local
 * verification source (the registry /identity/idcard/* checks cards against) and of the tokens'
 * field keys for the `encryption` member. Records are sealed with the identity key; nothing here
 * prints a portrait. Changes to the registry go through the admin API's service layer, each with
 * its audit record (actor `cli`) in one transaction.
 */
import { readFileSync } from 'node:fs';
import { Command, type Option } from 'commander';
import { loadConfig } from '../config/index.js';
import { openDatabase, type Db } from '../store/database.js';
import { loadIdentityKey } from '../providers/identity/identity-key.js';
import { IdentityRegistry } from '../providers/identity/registry.js';
import { FieldKeys } from '../providers/identity/field-keys.js';
import { Tokens } from '../accounts/tokens.js';
import { IdentityAdmin, maskName, maskNumber } from '../admin/identities.js';
import { CLI } from '../admin/audit.js';
import { ServiceError, type ErrorCode } from '../errors.js';

const NAME_MAX = 64;
const PORTRAIT_BYTES = 5 * 1024 * 1024;
const PORTRAIT_PIXELS = 16_000_000;

interface Opened {
  db: Db;
  registry: IdentityRegistry;
  admin: IdentityAdmin;
  keys: FieldKeys;
}

async function withRegistry<T>(
  configFile: string | undefined,
  work: (opened: Opened) => Promise<T>,
): Promise<T> {
  const config = loadConfig({ file: configFile });
  const key = loadIdentityKey(config.identity);
  const db = await openDatabase(config.database.url);
  try {
    const registry = new IdentityRegistry(db, key);
    return await work({ db, registry, admin: new IdentityAdmin(registry), keys: new FieldKeys(db, key) });
  } finally {
    await db.destroy();
  }
}

/** The service layer's refusal with this code, told in the command's words. */
function refusedAs(code: ErrorCode, message: string) {
  return (error: unknown): never => {
    if (error instanceof ServiceError && error.code === code) throw new Error(message);
    throw error;
  };
}

/** The number, checked as the card engine checks it; the engine loads with these commands only. */
export async function checkedNumber(text: string): Promise<string> {
  const { parseIdNumber } = await import('../engines/idcard/index.js');
  const facts = parseIdNumber(text.trim());
  if (!facts.ok) throw new Error(`--id-number: ${facts.rule}`);
  return facts.number;
}

export function checkedName(text: string): string {
  const name = text.trim();
  if (name === '' || [...name].length > NAME_MAX)
    throw new Error(`--name: must be 1 to ${NAME_MAX} characters`);
  return name;
}

/** A portrait file: a PNG or JPEG image, kept as it is. Its decoders load with the first one. */
export async function portraitFile(path: string): Promise<Buffer> {
  const bytes = readFileSync(path);
  if (bytes.length > PORTRAIT_BYTES) throw new Error(`--portrait: ${path} is larger than 5 MB`);
  const { decodeImage, UnreadableImage } = await import('../engines/image-codec.js');
  try {
    decodeImage(bytes, PORTRAIT_PIXELS);
  } catch (error) {
    if (error instanceof UnreadableImage) throw new Error(`--portrait: ${path} ${error.message}`);
    throw error;
  }
  return bytes;
}

export function identityCommands(configOption: () => Option): Command {
  const identity = new Command('identity').description(
    'the local ID verification registry and the field keys of tokens',
  );

  identity
    .command('enroll')
    .description('add an identity to the registry')
    .addOption(configOption())
    .requiredOption('--name <name>', 'the name as printed on the card')
    .requiredOption('--id-number <number>', 'the 18-character resident ID number')
    .option('--portrait <file>', 'reference portrait (PNG or JPEG) that check-1e compares cards with')
    .action(async (flags) => {
      const record = {
        name: checkedName(flags.name),
        id_number: await checkedNumber(flags.idNumber),
        ...(flags.portrait ? { portrait: await portraitFile(flags.portrait) } : {}),
      };
      await withRegistry(flags.config, ({ admin }) =>
        admin
          .enroll(record, CLI)
          .catch(refusedAs('conflict', `--id-number: ${record.id_number} is already enrolled (use update)`)),
      );
      process.stdout.write(`enrolled ${record.id_number}\n`);
    });

  identity
    .command('update')
    .description('change the name or portrait of an enrolled identity')
    .addOption(configOption())
    .requiredOption('--id-number <number>', 'the enrolled ID number')
    .option('--name <name>', 'the new name')
    .option('--portrait <file>', 'the new reference portrait (PNG or JPEG)')
    .option('--no-portrait', 'remove the reference portrait')
    .action(async (flags) => {
      const number = await checkedNumber(flags.idNumber);
      // commander: --no-portrait sets portrait to false; --portrait FILE sets the path.
      const portrait =
        flags.portrait === false
          ? null
          : typeof flags.portrait === 'string'
            ? await portraitFile(flags.portrait)
            : undefined;
      const name = flags.name === undefined ? undefined : checkedName(flags.name);
      if (name === undefined && portrait === undefined)
        throw new Error('nothing to change: give --name, --portrait or --no-portrait');
      const change = { ...(name ? { name } : {}), ...(portrait !== undefined ? { portrait } : {}) };
      await withRegistry(flags.config, ({ registry, admin }) =>
        admin
          .update(registry.idOf(number), change, CLI)
          .catch(refusedAs('not_found', `--id-number: ${number} is not enrolled`)),
      );
      process.stdout.write(`updated ${number}\n`);
    });

  identity
    .command('remove')
    .description('remove an identity from the registry')
    .addOption(configOption())
    .requiredOption('--id-number <number>', 'the enrolled ID number')
    .action(async (flags) => {
      const number = await checkedNumber(flags.idNumber);
      await withRegistry(flags.config, ({ registry, admin }) =>
        admin
          .remove(registry.idOf(number), CLI)
          .catch(refusedAs('not_found', `--id-number: ${number} is not enrolled`)),
      );
      process.stdout.write(`removed ${number}\n`);
    });

  identity
    .command('list')
    .description(
      'list enrolled identities (name and number masked as the admin API masks them, whether a portrait is kept)',
    )
    .addOption(configOption())
    .option('--json', 'print a JSON array')
    .option('--unmasked', 'show whole names and numbers (personal data: mind where the output goes)')
    .action(async (flags) => {
      const all = await withRegistry(flags.config, ({ registry }) => registry.list());
      const shown = flags.unmasked === true;
      const rows = all.map((r) => ({
        id_number: shown ? r.id_number : maskNumber(r.id_number),
        name: shown ? r.name : maskName(r.name),
        portrait: r.portrait !== undefined,
        enrolled_at: new Date(r.enrolled_at).toISOString(),
        updated_at: new Date(r.updated_at).toISOString(),
      }));
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(rows)}\n`);
        return;
      }
      for (const r of rows)
        process.stdout.write(`${r.id_number}  ${r.name}  portrait=${r.portrait ? 'yes' : 'no'}\n`);
    });

  identity
    .command('key')
    .description("print a token's field key for the encryption member (created on first use)")
    .addOption(configOption())
    .requiredOption('--token <id>', 'the token id (see token list)')
    .option('--rotate', 'add a new key version; older versions still open requests')
    .action(async (flags) => {
      const key = await withRegistry(flags.config, async ({ db, keys }) => {
        if (!(await new Tokens(db).get(flags.token)))
          throw new Error(`--token: no token with id ${flags.token}`);
        const current = flags.rotate ? undefined : await keys.newest(flags.token);
        return current ?? keys.rotate(flags.token);
      });
      const out = {
        token_id: flags.token,
        version: key.version,
        algorithm: 'AES-256-GCM',
        key: key.key.toString('base64'),
      };
      process.stdout.write(`${JSON.stringify(out)}\n`);
    });

  return identity;
}
