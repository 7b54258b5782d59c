/**
 * The local verification source and the tokens' field keys on both stores: what an operator
 * enrolls comes back, and what lies in the database reveals neither names, numbers, faces nor keys.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/database.js';
import { IdentityRegistry } from '../../src/providers/identity/registry.js';
import { FieldKeys } from '../../src/providers/identity/field-keys.js';
import { SealBroken } from '../../src/providers/identity/sealing.js';
import { provisionShared, type Provisioned } from '../support/backends.js';

const NUMBER = '11010519491231002X';
const NAME = '张晓明';

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`identity registry on ${backend}`, () => {
    let db: Db;
    let shared: Provisioned | undefined;
    const key = randomBytes(32);

    beforeAll(async () => {
      if (backend === 'postgres') {
        shared = await provisionShared();
        db = await openDatabase(String(shared.overrides['database.url']));
      } else {
        db = await openDatabase(`sqlite:${join(mkdtempSync(join(tmpdir(), 'sy-identity-')), 'db.sqlite')}`);
      }
    });
    afterAll(async () => {
      await db.destroy();
      await shared?.release();
    });

    it('enrolls, finds, updates, lists and removes identities', async () => {
      const registry = new IdentityRegistry(db, key);
      const portrait = randomBytes(300);
      expect(await registry.enroll({ name: NAME, id_number: NUMBER.toLowerCase(), portrait })).toBe(true);
      expect(await registry.enroll({ name: '别人', id_number: NUMBER })).toBe(false);
      const found = await registry.find(NUMBER);
      expect(found).toEqual({ name: NAME, id_number: NUMBER, portrait });
      expect(await registry.find('110105194912310021')).toBeUndefined();

      expect(await registry.update(NUMBER, { name: '张晓红' })).toBe(true);
      expect((await registry.find(NUMBER))?.portrait).toEqual(portrait);
      expect(await registry.update(NUMBER, { portrait: null })).toBe(true);
      expect(await registry.find(NUMBER)).toEqual({ name: '张晓红', id_number: NUMBER });
      expect(await registry.update('110105194912310021', { name: 'x' })).toBe(false);

      await registry.enroll({ name: '李四', id_number: '440524188001010014' });
      const listed = await registry.list();
      expect(listed.map((r) => r.id_number)).toEqual([NUMBER, '440524188001010014']);
      expect(listed[0]!.enrolled_at).toBeLessThanOrEqual(listed[0]!.updated_at);

      expect(await registry.remove('440524188001010014')).toBe(true);
      expect(await registry.remove('440524188001010014')).toBe(false);
      expect((await registry.list()).length).toBe(1);
    });

    it('keeps records sealed: no name, number or portrait at rest, and another key opens nothing', async () => {
      const registry = new IdentityRegistry(db, key);
      const portrait = Buffer.from('a portrait that must not be readable at rest');
      await registry.enroll({ name: '王芳', id_number: '320311197001010023', portrait });
      const rows = await db.selectFrom('identities').selectAll().execute();
      const raw = JSON.stringify(rows);
      for (const secret of ['王芳', '320311197001010023', portrait.toString('base64'), 'portrait that'])
        expect(raw).not.toContain(secret);

      const stranger = new IdentityRegistry(db, randomBytes(32));
      expect(await stranger.find('320311197001010023')).toBeUndefined();
      await expect(stranger.list()).rejects.toThrow(SealBroken);

      // A sealed record moved under another lookup does not open there.
      const row = rows.find((r) => r.sealed !== undefined)!;
      const other = rows.find((r) => r.lookup !== row.lookup)!;
      await db
        .updateTable('identities')
        .set({ sealed: row.sealed })
        .where('lookup', '=', other.lookup)
        .execute();
      await expect(registry.list()).rejects.toThrow(SealBroken);
      await db.deleteFrom('identities').execute();
    });

    it('numbers field keys by version, keeps old versions, and seals them at rest', async () => {
      const keys = new FieldKeys(db, key);
      expect(await keys.newest('token-a')).toBeUndefined();
      const first = await keys.rotate('token-a');
      const second = await keys.rotate('token-a');
      expect([first.version, second.version]).toEqual([1, 2]);
      expect(first.key).toHaveLength(32);
      expect(first.key.equals(second.key)).toBe(false);
      expect(await keys.newest('token-a')).toEqual(second);
      expect(await keys.version('token-a', 1)).toEqual(first);
      expect(await keys.version('token-b', 1)).toBeUndefined();
      const raw = JSON.stringify(await db.selectFrom('field_keys').selectAll().execute());
      expect(raw).not.toContain(first.key.toString('base64'));
      expect(raw).not.toContain(first.key.toString('hex'));
    });
  });
}
