/**
 * The command line's token changes (create, rotate-secret, revoke) are audited with the actor
 * `cli`, each in the change's own transaction: where the record cannot be written, the command
 * fails and the token is as it was. The compiled program, as operators run it, on both backends.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../src/store/database.js';
import { BACKENDS, provisionShared, type Provisioned } from '../support/backends.js';

// Each command is a process of its own: one to two seconds on a quiet machine, more when busy.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const run = promisify(execFile);
const BIN = resolve('bin/switchyard');

describe.each(BACKENDS)('%s', (backend) => {
  let shared: Provisioned | undefined;
  let db: Db;
  let env: NodeJS.ProcessEnv;

  const cli = async (...args: string[]) => (await run(BIN, args, { env })).stdout;
  const failure = async (...args: string[]) =>
    run(BIN, args, { env }).then(
      () => 'succeeded',
      (error: { stderr: string; code: number }) => `${error.code}: ${error.stderr}`,
    );
  const token = (name: string) =>
    db.selectFrom('tokens').selectAll().where('name', '=', name).orderBy('created_at').execute();

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-cli-audit-'));
    let url = `sqlite:${join(dir, 'switchyard.db')}`;
    if (backend === 'postgres+redis') {
      shared = await provisionShared();
      url = String(shared.overrides['database.url']);
    }
    const config = join(dir, 'switchyard.yaml');
    writeFileSync(config, `data_dir: ${dir}\ndatabase: { url: '${url}' }\nlog:\n  level: warn\n`);
    env = { ...process.env, SWITCHYARD_CONFIG: config };
    db = await openDatabase(url);
  });
  afterAll(async () => {
    await db?.destroy();
    await shared?.release();
  });

  it('records each change with the actor cli, naming the token by name and id', async () => {
    const created = JSON.parse(
      await cli('token', 'create', '--name', 'acme', '--credits', '5', '--json'),
    ) as {
      id: string;
      webhook_secret: string;
    };
    const secret = (await cli('token', 'rotate-secret', 'acme')).trim();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.webhook_secret);
    expect(await cli('token', 'revoke', created.id)).toBe('revoked 1 token\n');

    const rows = await db
      .selectFrom('audit')
      .select(['actor', 'actor_id', 'action', 'target', 'detail'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => ({ ...r, detail: JSON.parse(r.detail ?? '{}') as unknown }))).toEqual([
      {
        actor: 'cli',
        actor_id: null,
        action: 'token.create',
        target: 'acme',
        detail: { id: created.id, role: 'client', credits: 5 },
      },
      {
        actor: 'cli',
        actor_id: null,
        action: 'token.rotate_secret',
        target: 'acme',
        detail: { id: created.id },
      },
      { actor: 'cli', actor_id: null, action: 'token.revoke', target: 'acme', detail: { id: created.id } },
    ]);
  });

  it('changes nothing when the audit record cannot be written', async () => {
    await cli('token', 'create', '--name', 'keeper', '--credits', '7');
    const [before] = await token('keeper');
    // The audit table out of the way: every insert into it fails, as a full disk or a lost
    // connection would fail it.
    await sql`alter table audit rename to audit_aside`.execute(db);

    expect(await failure('token', 'create', '--name', 'lost')).toMatch(/^1: switchyard: .*audit/);
    expect(await token('lost')).toEqual([]);
    expect(await failure('token', 'rotate-secret', 'keeper')).toMatch(/^1: switchyard: .*audit/);
    expect(await failure('token', 'revoke', 'keeper')).toMatch(/^1: switchyard: .*audit/);
    expect(await token('keeper')).toEqual([before]);
  });
});
