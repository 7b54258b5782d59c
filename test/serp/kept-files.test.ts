/**
 * Files indexed from a folder, as a client meets them: `switchyard search index` (the compiled
 * command) over a folder of HTML, Markdown and text and a JSONL export, then /serp/web over HTTP.
 * No link names the server's disk: each one opens on the server, or is the base URL given or the
 * record's own; the serving route opens nothing but a folder's kept files under its key, so that
 * the relative links between its pages open, and nothing of another folder.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SearchIndex } from '../../src/engines/searchindex/index.js';
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

/**
 * Two more folders, indexed by two commands, on soaring: a club's pages, which link each other by
 * relative links, and a diary. Each is a site of its own.
 */
const CLUB: Record<string, string> = {
  'index.html':
    '<title>Soaring club</title><p>Soaring every weekend.</p><a href="lessons/first.html">First lesson</a>',
  'lessons/first.html':
    '<title>First soaring lesson</title><p>Soaring with an instructor.</p>' +
    '<a href="../index.html">The club</a> <a href="second.html">Next</a>',
  'lessons/second.html': '<title>Second soaring lesson</title><p>Soaring alone.</p>',
};
const DIARY: Record<string, string> = {
  'ridge.md': '# Soaring the ridge\n\nSoaring along the ridge all afternoon.\n',
  'wave.md': '# Soaring in wave\n\nSoaring in mountain wave.\n',
};

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
  for (const [name, files] of Object.entries({ club: CLUB, diary: DIARY })) {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(dir, name, path, '..'), { recursive: true });
      writeFileSync(join(dir, name, path), content);
    }
    await cli('search', 'index', join(dir, name), '--index', indexPath);
  }
  // What an earlier version took and may still hold: links and an image that are not http(s).
  const old = new SearchIndex(indexPath);
  old.add([
    { link: 'javascript:alert(1)', title: 'Glider trick', text: 'A glider trick.' },
    { link: 'file:///home/me/glider.md', title: 'Glider notes', text: 'Glider notes on my disk.' },
    { link: RECORD_LINK, title: 'Gliders', text: 'Glider basics.', image_url: 'file:///home/me/glider.png' },
  ]);
  old.close();
  copyFileSync(indexPath, copyPath);
  server = await startServer({ 'search.index_path': indexPath });
  token = await server.token();
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Organic {
  link: string;
  title: string;
  sitelinks?: { link: string }[];
}

async function search(
  on: TestServer,
  as: string,
  body: object,
): Promise<{ text: string; organic: Organic[] }> {
  const answer = await on.post('/serp/web', body, as);
  expect(answer.status, answer.text).toBe(200);
  return { text: answer.text, organic: answer.body.organic as Organic[] };
}

async function links(on: TestServer, as: string): Promise<{ text: string; links: string[] }> {
  const { text, organic } = await search(on, as, { query: 'glider', number: 20 });
  return {
    text,
    links: organic.flatMap((item) => [item.link, ...(item.sitelinks ?? []).map((s) => s.link)]),
  };
}

/** A served link's key: what follows `/search/files/`. */
const keyOf = (link: string) => /\/search\/files\/([^/]+)\//.exec(link)?.[1];

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
    for (const text of [
      answer.text,
      (await server.post('/serp/web', { query: 'glider', type: 'images' }, token)).text,
    ]) {
      expect(text).not.toContain('file:');
      expect(text).not.toContain('javascript:');
      expect(text).not.toContain(dir);
    }
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
      // The key in the path opens the folder: a page never hands it to the sites it loads from.
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
    expect(opened).toEqual(FILES);
  });

  it("opens nothing but a folder's kept files under its key", async () => {
    const served = (await links(server, token)).links.filter((l) => l.startsWith(server.url));
    const path = new URL(served.find((l) => l.endsWith('/winch.html')) ?? '').pathname;
    const key = path.split('/')[3] ?? '';
    expect(await rawGet(path)).toBe(200);
    // One key for the folder: its other kept files open under it.
    expect(new Set(served.map(keyOf))).toEqual(new Set([key]));
    expect(await rawGet(`/search/files/${key}/checklist.txt`)).toBe(200);
    const club = (await search(server, token, { query: 'soaring club' })).organic[0]?.link ?? '';
    expect(keyOf(club)).not.toBe(key);
    const outside = [
      `/search/files/${key}/../../../../etc/passwd`,
      `/search/files/${key}/%2e%2e/%2e%2e/package.json`,
      `/search/files/${key}/..%2f..%2fpackage.json`,
      `/search/files/${key}/secrets.csv`,
      // Another folder's file, under this folder's key; this folder's file under the other's.
      `/search/files/${key}/index.html`,
      `/search/files/${keyOf(club)}/winch.html`,
      `/search/files/${key.slice(1)}x/winch.html`,
      `/search/files/${key}/`,
      `/search/files/${key}`,
    ];
    for (const attempt of outside) expect(await rawGet(attempt), attempt).toBe(404);
  });

  it('open the pages their relative links name, as they did on the disk', async () => {
    const { organic } = await search(server, token, { query: 'soaring', number: 20 });
    const pages = organic.filter((item) => ['Soaring club', 'First soaring lesson'].includes(item.title));
    expect(pages).toHaveLength(2);
    const opened = new Map<string, string>();
    for (const { link } of pages) {
      const html = await (await fetch(link)).text();
      // lessons/first.html, ../index.html and second.html, each against the page's own address.
      for (const [, href] of html.matchAll(/href="([^"]+)"/g)) {
        const target = new URL(href ?? '', link).toString();
        const response = await fetch(target);
        expect(response.status, `${href} from ${link}`).toBe(200);
        opened.set(keptPath(target), await response.text());
      }
    }
    expect(Object.fromEntries(opened)).toEqual(CLUB);
  });

  it('are sitelinked with pages of their own folder only', async () => {
    let sitelinked = 0;
    // One result a page: each is the top of its page, and lists its site's other pages.
    for (let page = 1; page <= Object.keys({ ...CLUB, ...DIARY }).length; page += 1) {
      const [item] = (await search(server, token, { query: 'soaring', number: 1, page })).organic;
      for (const sitelink of item?.sitelinks ?? []) {
        sitelinked += 1;
        expect(keyOf(sitelink.link), `${sitelink.link} beside ${item?.link}`).toBe(keyOf(item?.link ?? ''));
      }
    }
    expect(sitelinked).toBeGreaterThan(0);
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
