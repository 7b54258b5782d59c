/**
 * Files indexed from a folder, as a client meets them: `switchyard search index` (the compiled
 * command) over a folder of HTML, Markdown and text and a JSONL export, then /serp/web over HTTP.
 * No link names the server's disk: each one opens on the server, or is the base URL given or the
 * record's own; the serving route opens nothing but kept files under their own keys.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

// Two runs of the command, each a process of its own: seconds each on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const run = promisify(execFile);
const BIN = resolve('bin/switchyard');
const dir = mkdtempSync(join(tmpdir(), 'sy-kept-files-'));
const folder = join(dir, 'notes');
const published = join(dir, 'published');
const indexPath = join(dir, 'index.db');
/** The same index file, copied as to another node. */
const copyPath = join(dir, 'copy.db');
const BASE = 'https://docs.example.com/handbook/';
const RECORD_LINK = 'https://aero.example/gliders?ref=export';

/** The files of the folder, by their path below it, with the type they are served with. */
const FILES: Record<string, { content: string; type: string }> = {
  'winch.html': {
    content:
      '<!doctype html><html lang="en"><head><title>Winch launch</title>' +
      '<meta property="og:image" content="img/winch.png"></head>' +
      '<body><p>A glider winch launch climbs steeply.</p><script>alert(1)</script></body></html>',
    type: 'text/html; charset=utf-8',
  },
  'field guide/thermals.md': {
    content: '# Thermals\n\nA glider circles in **thermals** to climb; ridge lift is another way.\n',
    type: 'text/markdown; charset=utf-8',
  },
  'checklist.txt': {
    content: 'Glider checklist\nStraps, instruments, controls, ballast, canopy.\n',
    type: 'text/plain; charset=utf-8',
  },
};

let server: TestServer;
let token: string;

const cli = (...args: string[]) => run(BIN, args, { env: { ...process.env, SWITCHYARD_CONFIG: '' } });

beforeAll(async () => {
  for (const [path, file] of Object.entries(FILES)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), file.content);
  }
  // Beside them, a file of a kind the index does not read: it is never indexed, so never served.
  writeFileSync(join(folder, 'secrets.csv'), 'glider,password\n');
  mkdirSync(published);
  writeFileSync(join(published, 'aerotow.md'), '# Aerotow\n\nA tug plane tows the glider up.\n');
  const exported = join(dir, 'export.jsonl');
  writeFileSync(
    exported,
    `${JSON.stringify({ type: 'organic', link: RECORD_LINK, title: 'Gliders', text: 'Glider basics.' })}\n`,
  );
  await cli('search', 'index', folder, exported, '--index', indexPath);
  await cli('search', 'index', published, '--index', indexPath, '--base-url', BASE);
  copyFileSync(indexPath, copyPath);
  server = await startServer({ 'search.index_path': indexPath });
  token = await server.token();
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function links(on: TestServer, as: string): Promise<{ text: string; links: string[] }> {
  const answer = await on.post('/serp/web', { query: 'glider', number: 20 }, as);
  expect(answer.status, answer.text).toBe(200);
  const organic = answer.body.organic as { link: string; sitelinks?: { link: string }[] }[];
  return {
    text: answer.text,
    links: organic.flatMap((item) => [item.link, ...(item.sitelinks ?? []).map((s) => s.link)]),
  };
}

/** A served link's file path: what follows `/search/files/<key>/`. */
const keptPath = (link: string) =>
  decodeURIComponent(new URL(link).pathname.replace(/^.*\/search\/files\/[^/]+\//, ''));

/** A GET whose path is sent as written: no client-side resolution of `..`. */
function rawGet(path: string): Promise<number> {
  return new Promise((done, fail) => {
    const url = new URL(server.url);
    request({ host: url.hostname, port: url.port, path }, (response) => {
      response.resume();
      done(response.statusCode ?? 0);
    })
      .on('error', fail)
      .end();
  });
}

describe('files indexed from a folder', () => {
  it('are linked on the server, the base URL given or the record, never on the disk', async () => {
    const answer = await links(server, token);
    expect(answer.text).not.toContain('file:');
    expect(answer.text).not.toContain(dir);
    expect(answer.links).toContain(RECORD_LINK);
    expect(answer.links).toContain(`${BASE}aerotow.md`);
    const served = answer.links.filter((link) => link.startsWith(`${server.url}/search/files/`));
    expect(served).toHaveLength(Object.keys(FILES).length);
    expect(answer.links.filter((link) => link !== RECORD_LINK && !link.startsWith(BASE))).toEqual(served);

    const opened: Record<string, { content: string; type: string }> = {};
    for (const link of served) {
      // Without a token: whoever was given the link opens it, as a browser does.
      const response = await fetch(link);
      expect(response.status, link).toBe(200);
      opened[keptPath(link)] = {
        content: await response.text(),
        type: response.headers.get('content-type') ?? '',
      };
      // Indexed pages run no script with this service's origin.
      expect(response.headers.get('content-security-policy')).toBe('sandbox');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(opened).toEqual(FILES);
  });

  it('opens nothing but a kept file under its own key', async () => {
    const [link] = (await links(server, token)).links.filter((l) => l.endsWith('/winch.html'));
    const path = new URL(link ?? '').pathname;
    const key = path.split('/')[3] ?? '';
    expect(await rawGet(path)).toBe(200);
    const outside = [
      `/search/files/${key}/../../../../etc/passwd`,
      `/search/files/${key}/%2e%2e/%2e%2e/package.json`,
      `/search/files/${key}/..%2f..%2fpackage.json`,
      `/search/files/${key}/secrets.csv`,
      `/search/files/${key}/checklist.txt`,
      `/search/files/${key.slice(1)}x/winch.html`,
      `/search/files/${key}/`,
      `/search/files/${key}`,
    ];
    for (const attempt of outside) expect(await rawGet(attempt), attempt).toBe(404);
  });

  it('are linked under the address of whichever server answers, from a copy of the index', async () => {
    const mirror = await startServer({
      'search.index_path': copyPath,
      public_base_url: 'https://mirror.example/switchyard',
    });
    try {
      const answer = await links(mirror, await mirror.token());
      const served = answer.links.filter((link) => link.startsWith('https://mirror.example/switchyard/'));
      expect(served).toHaveLength(Object.keys(FILES).length);
      for (const link of served) {
        // The proxy in front of the mirror would strip its prefix.
        const path = link.slice('https://mirror.example/switchyard'.length);
        const response = await fetch(`${mirror.url}${path}`);
        expect(response.status, link).toBe(200);
        expect(await response.text()).toBe(FILES[keptPath(link)]?.content);
      }
    } finally {
      await mirror.close();
    }
  });
});
