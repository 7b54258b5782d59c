/** Reading files into the search index: HTML, Markdown, text and JSONL records. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/engines/searchindex/index.js';
import { ingest } from '../../src/engines/searchindex/ingest/ingest.js';
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
    const links = index.search({ query: 'rudder ailerons propeller' }).hits.map((hit) => hit.link);
    // The page that names its canonical address is linked there, and not kept.
    expect(links.sort()).toEqual(['/notes.md', '/rudder.txt', 'https://props.example/guide']);
    expect(index.file('/notes.md', index.fileKey('/notes.md'))).toEqual({
      type: 'text/markdown; charset=utf-8',
      content: readFileSync(join(SITE, 'notes.md'), 'utf8'),
    });
    expect(index.file('/rudder.txt', index.fileKey('/rudder.txt'))?.type).toBe('text/plain; charset=utf-8');
    expect(index.file('/index.html', index.fileKey('/index.html'))).toBeUndefined();
    // Only under its own key: another file's key, or a key altered by one character, opens nothing.
    expect(index.file('/notes.md', index.fileKey('/rudder.txt'))).toBeUndefined();
    const key = index.fileKey('/notes.md');
    expect(index.file('/notes.md', `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
  });

  it('keys links the same on a copy of the index, differently in another index', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'sub', 'page.html'), '<title>Sub page</title><p>deep text</p>');
    await ingest(index, [folder]);
    const key = index.fileKey('/sub/page.html');
    index.close();
    const copy = join(dir, 'copy.db');
    writeFileSync(copy, readFileSync(join(dir, 'index.db')));
    index = new SearchIndex(copy);
    expect(index.fileKey('/sub/page.html')).toBe(key);
    expect(index.file('/sub/page.html', key)?.type).toBe('text/html; charset=utf-8');
    const other = new SearchIndex(join(dir, 'other.db'));
    expect(other.fileKey('/sub/page.html')).not.toBe(key);
    other.close();
  });

  it('opening a version 4 index removes its file:// documents and keeps the rest', async () => {
    index.add([
      { link: 'file:///home/me/notes/a.md', title: 'Old notes', text: 'glider notes' },
      { link: 'https://gliders.example/a', title: 'Gliders', text: 'glider page' },
    ]);
    index.close();
    const db = new Database(join(dir, 'index.db'));
    db.pragma('user_version = 4');
    db.close();
    index = new SearchIndex(join(dir, 'index.db'));
    expect(index.removedFileLinks).toBe(1);
    expect(index.search({ query: 'glider' }).hits.map((hit) => hit.link)).toEqual([
      'https://gliders.example/a',
    ]);
    expect(index.stats().documents).toBe(1);
    index.close();
    index = new SearchIndex(join(dir, 'index.db'));
    expect(index.removedFileLinks).toBe(0);
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
        '',
      ].join('\n'),
    );
    const progress: number[] = [];
    const result = await ingest(index, [file], { onProgress: (p) => progress.push(p.bytes) });
    expect(result).toMatchObject({ documents: 1, rejected: 5 });
    expect(result.rejections.map((r) => `${r.where.slice(file.length)} ${r.field}: ${r.rule}`)).toEqual([
      expect.stringMatching(/^:2 line: must be JSON/),
      expect.stringMatching(/^:3 type: must be one of organic, search, page/),
      ':4 image_url: is required for type images',
      ':5 link: must be an absolute URL',
      ':5 date: must be an ISO 8601 date such as 2024-05-01 or 2024-05-01T10:00:00Z',
      ':6 question: is required for type people_also_ask',
      ':6 snippet: is required for type people_also_ask',
    ]);
    expect(progress.at(-1)).toBe(result.totalBytes);
  });

  it('refuses a named file it cannot read, and a path that is not there', async () => {
    await expect(ingest(index, [join(SITE, 'ignored.csv')])).rejects.toThrow(/not a supported file/);
    await expect(ingest(index, [join(dir, 'absent')])).rejects.toThrow(/no such file/);
  });
});
