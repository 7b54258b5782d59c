/**
 * The command line's changes to tokens (create, rotate-secret, revoke) and to the identity
 * registry (enroll, update, remove) are audited with the actor `cli`, each in the change's own
 * transaction: where the record cannot be written, the command fails and nothing changed. The
 * compiled program, as operators run it, on both backends.
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
const IN_REGISTRY = '11010519491231002X';

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

  it('records each change with the actor cli, and changes nothing when the record cannot be written', async () => {
    const created = JSON.parse(
      await cli('token', 'create', '--name', 'acme', '--credits', '5', '--json'),
    ) as {
      id: string;
      webhook_secret: string;
    };
    const secret = (await cli('token', 'rotate-secret', 'acme')).trim();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.webhook_secret);
    const number = ['--id-number', IN_REGISTRY];
    expect(await cli('identity', 'enroll', '--name', '张三丰', ...number)).toBe(`enrolled ${IN_REGISTRY}\n`);
    expect(await cli('identity', 'update', '--name', '张晓红', ...number)).toBe(`updated ${IN_REGISTRY}\n`);

    // The audit table out of the way: every insert into it fails, as a full disk or a lost
    // connection would fail it. One token command and one identity command show that the
    // command fails whole; that each change of the service layer underneath does is tested over
    // the admin API (audit-atomic.test.ts), for all six.
    const [before] = await token('acme');
    const registry = () => db.selectFrom('identities').selectAll().execute();
    const enrolled = await registry();
    expect(enrolled).toHaveLength(1);
    await sql`alter table audit rename to audit_aside`.execute(db);
    expect(await failure('token', 'revoke', 'acme')).toMatch(/^1: switchyard: .*audit/);
    expect(await failure('identity', 'remove', ...number)).toMatch(/^1: switchyard: .*audit/);
    expect(await token('acme')).toEqual([before]);
    expect(await registry()).toEqual(enrolled);
    await sql`alter table audit_aside rename to audit`.execute(db);

    expect(await cli('token', 'revoke', created.id)).toBe('revoked 1 token\n');
    expect(await cli('identity', 'remove', ...number)).toBe(`removed ${IN_REGISTRY}\n`);
    const rows = await db
      .selectFrom('audit')
      .select(['actor', 'actor_id', 'action', 'target', 'detail'])
      .orderBy('id')
      .execute();
    const identity = rows.find((r) => r.action === 'identity.enroll')?.target;
    expect(identity).toMatch(/^[\w-]{16,}$/);
    expect(rows.map((r) => ({ ...r, detail: JSON.parse(r.detail ?? '{}') as unknown }))).toEqual([
      {
        actor: 'cli',
        actor_id: null,
        action: 'token.create',
        target: 'acme',
        detail: { id: created.id, role: 'client', account: 'acme', credits: 5 },
      },
      {
        actor: 'cli',
        actor_id: null,
        action: 'token.rotate_secret',
        target: 'acme',
        detail: { id: created.id },
      },
      { actor: 'cli', actor_id: null, action: 'identity.enroll', target: identity, detail: {} },
      {
        actor: 'cli',
        actor_id: null,
        action: 'identity.update',
        target: identity,
        detail: { name: true, portrait: false },
      },
      { actor: 'cli', actor_id: null, action: 'token.revoke', target: 'acme', detail: { id: created.id } },
      { actor: 'cli', actor_id: null, action: 'identity.remove', target: identity, detail: {} },
    ]);
  });
});
