/**
 * The ID card example of the README as an operator and a client run it: the sample portrait
 * enrolled with the `switchyard` command into a fresh data directory, the real server started on
 * that directory, and the two request files of examples/idcard posted as they are.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { EXAMPLE_DIR, EXAMPLE_HOLDER, exampleRequests } from '../support/idcard-example.js';

const run = promisify(execFile);
const example = (name: string) => readFileSync(join(EXAMPLE_DIR, name));

describe('the ID card example', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-example-'));
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    const config = join(dir, 'switchyard.yaml');
    writeFileSync(config, `data_dir: ${dir}\nlog:\n  level: warn\n`);
    const { stdout } = await run(
      resolve('bin/switchyard'),
      [
        ...['identity', 'enroll', '--config', config],
        ...['--name', EXAMPLE_HOLDER.name, '--id-number', EXAMPLE_HOLDER.idNumber],
        ...['--portrait', join(EXAMPLE_DIR, 'portrait.png')],
      ],
      { env: { ...process.env, SWITCHYARD_CONFIG: '' } },
    );
    expect(stdout).toBe(`enrolled ${EXAMPLE_HOLDER.idNumber}\n`);
    server = await startServer({ data_dir: dir, 'identity.workers': 1 });
    token = await server.token();
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries the card in both request files, and is small', () => {
    const card = example('card.jpg');
    const requests = exampleRequests(card);
    expect(example('check-1e.json').toString()).toBe(requests['check-1e.json']);
    expect(example('ocr.json').toString()).toBe(requests['ocr.json']);
    const total = ['card.jpg', 'portrait.png', 'check-1e.json', 'ocr.json']
      .map((name) => example(name).length)
      .reduce((a, b) => a + b);
    expect(total).toBeLessThan(512 * 1024);
  });

  it('check-1e reads every field and matches the enrolled portrait', async () => {
    const { status, body } = await server.post(
      '/identity/idcard/check-1e',
      example('check-1e.json').toString(),
      token,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      result: 'success',
      name: EXAMPLE_HOLDER.name,
      sex: EXAMPLE_HOLDER.sex,
      nation: EXAMPLE_HOLDER.nation,
      birth: EXAMPLE_HOLDER.birth,
      address: EXAMPLE_HOLDER.address,
      id_num: EXAMPLE_HOLDER.idNumber,
      warnings: '',
    });
    expect(body.sim).toBeGreaterThanOrEqual(70);
  });

  it('ocr verifies the name and number it is given', async () => {
    const { status, body } = await server.post('/identity/idcard/ocr', example('ocr.json').toString(), token);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      result: 'success',
      name: EXAMPLE_HOLDER.name,
      id_card: EXAMPLE_HOLDER.idNumber,
      address: EXAMPLE_HOLDER.address,
    });
  });
});
