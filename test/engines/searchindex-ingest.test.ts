/** Reading files into the search index: HTML, Markdown, text and JSONL records. */
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/engines/searchindex/index.js';
import { ingest } from '../../src/cli/search-ingest.js';
import { htmlToDocument } from '../../src/engines/searchindex/ingest/html.js';
import { markdownToDocument, textToDocument } from '../../src/engines/searchindex/ingest/markdown.js';

const SITE = resolve('test/serp/fixtures/site');
let dir: string;
let index: SearchIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sy-ingest-'));
  index = new SearchIndex(join(dir, 'index.db'));
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

interface OldDocument {
  link: string;
  site: string;
  title: string;
  text: string;
}

/** An index file as an earlier version made it: its schema, and pages as it stored them. */
function oldIndex(version: 4 | 5, file: string, pages: readonly OldDocument[]): Database.Database {
  const db = new Database(file);
  db.exec(readFileSync(resolve(`test/engines/fixtures/search-index-v${version}.sql`), 'utf8'));
  for (const page of pages) {
    const { lastInsertRowid: id } = db
      .prepare(
        "INSERT INTO documents (key, kind, link, site, title, text, tokens) VALUES (?, 'page', ?, ?, ?, ?, ?)",
      )
      .run(`page ${page.link}`, page.link, page.site, page.title, page.text, page.text.split(' ').length + 2);
    db.prepare("INSERT INTO facets (id, kind, has_image) VALUES (?, 'page', 0)").run(id);
    db.prepare('INSERT INTO fts (rowid, title, body) VALUES (?, ?, ?)').run(id, page.title, page.text);
  }
  return db;
}

describe('reading documents', () => {
  it('HTML: title, description, visible text only, og:image, date, language, canonical link', () => {
    const html = `<html lang="de"><head><title>Seite</title>
      <meta name="description" content="Kurz gesagt.">
      <meta property="og:image" content="img/a.png">
      <meta itemprop="datePublished" content="2023-07-01">
      <script>secret()</script><style>p{}</style></head>
      <body><nav>Menu</nav><p>Sichtbar &amp; lesbar.</p><noscript>hidden</noscript></body></html>`;
    const doc = htmlToDocument(html, 'https://x.example/dir/page.html');
    expect(doc).toMatchObject({
      link: 'https://x.example/dir/page.html',
      title: 'Seite',
      date: '2023-07-01',
      language: 'de',
      image_url: 'https://x.example/dir/img/a.png',
    });
    expect(doc.text).toBe('Kurz gesagt.\nSichtbar & lesbar.');
  });

  it('HTML without a title falls back to og:title, then the first heading', () => {
    expect(htmlToDocument('<h1>Heading</h1><p>x</p>', '/a.html').title).toBe('Heading');
    expect(htmlToDocument('<meta property="og:title" content="OG"><h1>H</h1>', '/a.html').title).toBe('OG');
  });

  it('HTML linked by its path alone keeps only the absolute URLs it names', () => {
    const page = (head: string) => htmlToDocument(`<head>${head}</head><p>x</p>`, '/dir/page.html');
    expect(page('<meta property="og:image" content="img/a.png">')).toMatchObject({
      link: '/dir/page.html',
      image_url: undefined,
    });
    expect(
      page('<meta property="og:image" content="https://cdn.example/a.png"><link rel="canonical" href="/p">'),
    ).toMatchObject({ link: '/dir/page.html', image_url: 'https://cdn.example/a.png' });
    expect(page('<link rel="canonical" href="https://x.example/p">').link).toBe('https://x.example/p');
  });

  it('HTML names itself and its image by http(s) URLs only: a file: or javascript: one is ignored', () => {
    for (const base of ['/3/dir/page.html', 'https://x.example/dir/page.html']) {
      const page = (head: string) => htmlToDocument(`<head>${head}</head><p>x</p>`, base);
      for (const url of ['file:///home/me/page.html', 'javascript:alert(1)', 'data:text/html,x']) {
        expect(page(`<link rel="canonical" href="${url}">`).link, url).toBe(base);
        expect(page(`<meta property="og:url" content="${url}">`).link, url).toBe(base);
        expect(page(`<meta property="og:image" content="${url}">`).image_url, url).toBeUndefined();
      }
    }
  });

  it('Markdown: front matter or first heading as title, markup removed', () => {
    const doc = markdownToDocument(
      '# Title here\n\nSome **bold** and `code`, a [link](http://x) and ![alt text](i.png).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
      '/r.md',
    );
    expect(doc.title).toBe('Title here');
    expect(doc.text).toBe('Title here\nSome bold and code, a link and alt text.\na b\n1 2');
  });

  it('text: the first line is the title', () => {
    expect(textToDocument('\n\nFirst line\nrest', '/t.txt')).toMatchObject({ title: 'First line' });
  });
});

describe('ingest', () => {
  it('walks folders, reads supported files, links them under a base URL', async () => {
    const result = await ingest(index, [SITE], { baseUrl: 'https://docs.example/guide' });
    expect(result).toMatchObject({ files: 3, documents: 3, rejected: 0 });
    const links = index.search({ query: 'rudder ailerons propeller' }).hits.map((hit) => hit.link);
    expect(links.sort()).toEqual([
      'https://docs.example/guide/notes.md',
      'https://docs.example/guide/rudder.txt',
      'https://props.example/guide',
    ]);
  });

  it('without a base URL, links files by their path below the folder and keeps them whole', async () => {
    const result = await ingest(index, [SITE]);
    expect(result).toMatchObject({ files: 3, documents: 3 });
    const root = index.root(SITE);
    const links = index.search({ query: 'rudder ailerons propeller' }).hits.map((hit) => hit.link);
    // The page that names its canonical address is linked there, and not kept.
    expect(links.sort()).toEqual([`/${root}/notes.md`, `/${root}/rudder.txt`, 'https://props.example/guide']);
    const { key, path } = index.fileAddress(`/${root}/notes.md`) ?? { key: '', path: '' };
    expect(path).toBe('notes.md');
    expect(index.file(key, 'notes.md')).toEqual({
      type: 'text/markdown; charset=utf-8',
      content: readFileSync(join(SITE, 'notes.md'), 'utf8'),
    });
    // One key for the folder: it opens the folder's other kept files, and nothing else.
    expect(index.fileAddress(`/${root}/rudder.txt`)?.key).toBe(key);
    expect(index.file(key, 'rudder.txt')?.type).toBe('text/plain; charset=utf-8');
    for (const path of ['index.html', 'ignored.csv', '/notes.md', './notes.md', 'x/../notes.md', ''])
      expect(index.file(key, path), path).toBeUndefined();
    // A key altered by one character opens nothing.
    expect(index.file(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, 'notes.md')).toBeUndefined();
    expect(index.fileAddress('https://props.example/guide')).toBeUndefined();
  });

  it('gives each folder indexed a key and a site of its own, the same when it is indexed again', async () => {
    const folders = ['one', 'two'].map((name) => join(dir, name));
    for (const [i, folder] of folders.entries()) {
      mkdirSync(folder);
      writeFileSync(join(folder, 'page.md'), `# Page ${i}\n\nlogbook entry ${i}\n`);
      writeFileSync(join(folder, `only-${i}.md`), `# Only ${i}\n\nlogbook of folder ${i}\n`);
      await ingest(index, [folder]);
    }
    const [one, two] = folders.map((folder) => index.root(folder));
    const keyOf = (root: number | undefined) => index.fileAddress(`/${root}/page.md`)?.key ?? '';
    expect(keyOf(one)).not.toBe(keyOf(two));
    // The same path below two folders: two documents, each file under its own folder's key.
    const hits = index.search({ query: 'logbook', number: 10 }).hits;
    expect(hits.map((hit) => hit.link).sort()).toEqual(
      [`/${one}/only-0.md`, `/${one}/page.md`, `/${two}/only-1.md`, `/${two}/page.md`].sort(),
    );
    expect(index.file(keyOf(one), 'page.md')?.content).toContain('logbook entry 0');
    expect(index.file(keyOf(two), 'page.md')?.content).toContain('logbook entry 1');
    // A folder's key opens nothing of the other folder.
    expect(index.file(keyOf(one), 'only-1.md')).toBeUndefined();
    expect(index.file(keyOf(two), 'only-0.md')).toBeUndefined();
    // Each folder is a site: sitelinks never mix them.
    const siteOf = (link: string) => hits.find((hit) => hit.link === link)?.site;
    expect(siteOf(`/${one}/page.md`)).toBe(siteOf(`/${one}/only-0.md`));
    expect(siteOf(`/${one}/page.md`)).not.toBe(siteOf(`/${two}/page.md`));
    // Indexed again, a folder keeps its root: the links given out still open.
    const key = keyOf(one);
    await ingest(index, [folders[0] ?? '']);
    expect(index.root(folders[0] ?? '')).toBe(one);
    expect(keyOf(one)).toBe(key);
    expect(index.stats().documents).toBe(4);
  });

  it('keys folders the same on a copy of the index, differently in another index', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'sub', 'page.html'), '<title>Sub page</title><p>deep text</p>');
    await ingest(index, [folder]);
    const link = `/${index.root(folder)}/sub/page.html`;
    const key = index.fileAddress(link)?.key;
    index.close();
    const copy = join(dir, 'copy.db');
    writeFileSync(copy, readFileSync(join(dir, 'index.db')));
    index = new SearchIndex(copy);
    expect(index.fileAddress(link)?.key).toBe(key);
    expect(index.file(key ?? '', 'sub/page.html')?.type).toBe('text/html; charset=utf-8');
    const other = new SearchIndex(join(dir, 'other.db'));
    expect(other.root(folder)).toBe(index.root(folder));
    expect(other.fileAddress(link)?.key).not.toBe(key);
    other.close();
  });

  it('opening a version 4 index removes its file:// and other non-web documents and keeps the rest', async () => {
    index.close();
    const file = join(dir, 'v4.db');
    oldIndex(4, file, [
      {
        link: 'file:///home/me/notes/a.md',
        site: 'file:///home/me/notes/',
        title: 'Old notes',
        text: 'glider notes',
      },
      { link: 'javascript:alert(1)', site: '', title: 'Glider trick', text: 'glider trick' },
      { link: 'https://gliders.example/a', site: 'gliders.example', title: 'Gliders', text: 'glider page' },
    ]);
    index = new SearchIndex(file);
    expect(index.removedDocuments).toBe(2);
    expect(index.search({ query: 'glider' }).hits.map((hit) => hit.link)).toEqual([
      'https://gliders.example/a',
    ]);
    expect(index.stats().documents).toBe(1);
    // Its folders indexed again are kept and served like any.
    await ingest(index, [SITE]);
    const kept = index.fileAddress(`/${index.root(SITE)}/notes.md`);
    expect(index.file(kept?.key ?? '', kept?.path ?? '')?.content).toBe(
      readFileSync(join(SITE, 'notes.md'), 'utf8'),
    );
    expect(index.search({ query: 'glider' }).hits).toHaveLength(1);
    expect(index.search({ query: 'ailerons' }).hits.length).toBeGreaterThan(0);
    index.close();
    index = new SearchIndex(file);
    expect(index.removedDocuments).toBe(0);
    expect(index.stats().documents).toBe(4);
  });

  it('opening a version 5 index removes its kept files, which no key of its opens any more', async () => {
    index.close();
    const file = join(dir, 'v5.db');
    const content = '# Notes\n\nglider notes\n';
    const db = oldIndex(5, file, [
      { link: '/notes.md', site: '/', title: 'Notes', text: 'glider notes' },
      { link: 'https://gliders.example/a', site: 'gliders.example', title: 'Gliders', text: 'glider page' },
    ]);
    db.prepare('INSERT INTO files (link, type, content) VALUES (?, ?, ?)').run(
      '/notes.md',
      'text/markdown; charset=utf-8',
      content,
    );
    // The key version 5 gave the file's link.
    const { value: secret } = db.prepare("SELECT value FROM settings WHERE name = 'file_secret'").get() as {
      value: string;
    };
    const oldKey = createHmac('sha256', secret).update('/notes.md').digest('base64url').slice(0, 22);
    db.close();
    index = new SearchIndex(file);
    expect(index.removedDocuments).toBe(1);
    expect(index.search({ query: 'glider' }).hits.map((hit) => hit.link)).toEqual([
      'https://gliders.example/a',
    ]);
    expect(index.file(oldKey, 'notes.md')).toBeUndefined();
    // The folder indexed again: its file is kept under its folder's key.
    const folder = join(dir, 'notes');
    mkdirSync(folder);
    writeFileSync(join(folder, 'notes.md'), content);
    await ingest(index, [folder]);
    const kept = index.fileAddress(`/${index.root(folder)}/notes.md`);
    expect(kept?.key).not.toBe(oldKey);
    expect(index.file(kept?.key ?? '', 'notes.md')?.content).toBe(content);
    expect(index.file(oldKey, 'notes.md')).toBeUndefined();
  });

  it('opens a version 6 index as it is, and refuses one of a later version', async () => {
    await ingest(index, [SITE]);
    const documents = index.stats().documents;
    index.close();
    // Version 6 as it was first made: without the count of document changes (nor version 8's vectors).
    const file = join(dir, 'index.db');
    const v6 = new Database(file);
    v6.exec('DROP TABLE generation; DROP TABLE vectors; PRAGMA user_version = 6;');
    // Some version 6 files kept the count by a trigger per facets row.
    v6.exec('CREATE TRIGGER facets_added AFTER INSERT ON facets BEGIN SELECT 1; END;');
    v6.close();
    index = new SearchIndex(file);
    expect(index.removedDocuments).toBe(0);
    expect(index.stats().documents).toBe(documents);
    expect(index.search({ query: 'ailerons' }).hits.length).toBeGreaterThan(0);
    index.close();
    const upgraded = new Database(file);
    expect(upgraded.pragma('user_version', { simple: true })).toBe(8);
    expect(upgraded.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all()).toEqual([]);
    // A later version's file is refused rather than read wrongly.
    upgraded.pragma('user_version = 9');
    upgraded.close();
    expect(() => new SearchIndex(file)).toThrow(/another version of the search index \(9, expected 8\)/);
    index = new SearchIndex(join(dir, 'fresh.db'));
  });

  it('replaces documents indexed again rather than adding them twice', async () => {
    await ingest(index, [SITE]);
    await ingest(index, [SITE]);
    expect(index.stats().documents).toBe(3);
  });

  it('rejects bad JSONL records by line and field, and indexes the rest', async () => {
    const file = join(dir, 'records.jsonl');
    writeFileSync(
      file,
      [
        '{"type":"news","link":"https://n.example/1","title":"Good","snippet":"fine","date":"2024-01-01"}',
        '{not json',
        '{"type":"books","link":"https://n.example/2","title":"x"}',
        '{"type":"images","link":"https://n.example/3","title":"No image"}',
        '{"type":"news","link":"relative/path","title":"x","date":"yesterday"}',
        '{"type":"people_also_ask","link":"https://n.example/4","title":"t"}',
        '{"type":"organic","link":"file:///etc/passwd","title":"Disk"}',
        '{"type":"organic","link":"javascript:alert(1)","title":"Script"}',
        '{"type":"images","link":"https://n.example/5","title":"Disk image","image_url":"file:///a.png"}',
        '',
      ].join('\n'),
    );
    const progress: number[] = [];
    const result = await ingest(index, [file], { onProgress: (p) => progress.push(p.bytes) });
    expect(result).toMatchObject({ documents: 1, rejected: 8 });
    expect(result.rejections.map((r) => `${r.where.slice(file.length)} ${r.field}: ${r.rule}`)).toEqual([
      expect.stringMatching(/^:2 line: must be JSON/),
      expect.stringMatching(/^:3 type: must be one of organic, search, page/),
      ':4 image_url: is required for type images',
      ':5 link: must be an http(s) URL',
      ':5 date: must be an ISO 8601 date such as 2024-05-01 or 2024-05-01T10:00:00Z',
      ':6 question: is required for type people_also_ask',
      ':6 snippet: is required for type people_also_ask',
      ':7 link: must be an http(s) URL',
      ':8 link: must be an http(s) URL',
      ':9 image_url: must be an http(s) URL',
    ]);
    expect(progress.at(-1)).toBe(result.totalBytes);
  });

  it('refuses a named file it cannot read, and a path that is not there', async () => {
    await expect(ingest(index, [join(SITE, 'ignored.csv')])).rejects.toThrow(/not a supported file/);
    await expect(ingest(index, [join(dir, 'absent')])).rejects.toThrow(/no such file/);
  });
});
