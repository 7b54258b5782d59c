/**
 * Indexing files: directories are walked (hidden folders and node_modules skipped), each file
 * read by its extension, documents added in batches of one transaction each. JSONL is streamed
 * line by line, so a corpus larger than memory indexes in constant memory. Progress is reported
 * in bytes read, the one measure known ahead for every kind of file.
 *
 * A file is linked by its path below the argument: under a base URL where it is published, or
 * below its folder's root (`/<root>/<path>`) with the file kept in the index, for the server to
 * hand out under its own address. Never by its place on this machine's disk, which is no address
 * for anyone else. A file named on its own belongs to the folder it is in.
 */
import { createReadStream } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { keptLink, type SearchDocument, type SearchIndex } from '../engines/searchindex/index.js';
// The file readers stay out of engines/searchindex/index.js: only indexing reads files, and the
// HTML reader's parser (htmlparser2) would otherwise load with the server's search provider.
import { htmlToDocument } from '../engines/searchindex/ingest/html.js';
import { markdownToDocument, textToDocument } from '../engines/searchindex/ingest/markdown.js';
import { recordToDocument } from './search-records.js';

interface Reader {
  read(source: string, link: string): SearchDocument;
  /** The media type a kept file is handed out with. */
  type: string;
}

const HTML: Reader = { read: htmlToDocument, type: 'text/html; charset=utf-8' };
const MARKDOWN: Reader = { read: markdownToDocument, type: 'text/markdown; charset=utf-8' };
const READERS: Readonly<Record<string, Reader>> = {
  '.html': HTML,
  '.htm': HTML,
  '.md': MARKDOWN,
  '.markdown': MARKDOWN,
  '.txt': { read: textToDocument, type: 'text/plain; charset=utf-8' },
};
const RECORDS = new Set(['.jsonl', '.ndjson']);
const BATCH = 2000;
/** Kept files make a batch heavy: it is added once they reach this many characters. */
const BATCH_CHARACTERS = 64 * 1024 * 1024;

export interface Progress {
  bytes: number;
  totalBytes: number;
  documents: number;
  rejected: number;
}

export interface Rejection {
  /** file, or file:line for a record. */
  where: string;
  field: string;
  rule: string;
}

export interface IngestOptions {
  /** Links of files are this URL plus the path below the argument; else that path below its root, kept. */
  baseUrl?: string;
  onProgress?: (progress: Progress) => void;
}

export interface IngestResult extends Progress {
  files: number;
  rejections: Rejection[];
}

interface Source {
  file: string;
  root: string;
  size: number;
}

const supported = (file: string) =>
  extname(file).toLowerCase() in READERS || RECORDS.has(extname(file).toLowerCase());

async function walk(path: string, root: string, out: Source[]): Promise<void> {
  const info = await stat(path);
  if (info.isFile()) {
    out.push({ file: path, root, size: info.size });
    return;
  }
  for (const entry of (await readdir(path, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) await walk(child, root, out);
    else if (entry.isFile() && supported(child))
      out.push({ file: child, root, size: (await stat(child)).size });
  }
}

/** The files to read, each with the argument it came from; unsupported files named are refused. */
export async function sourcesOf(paths: readonly string[]): Promise<Source[]> {
  const sources: Source[] = [];
  for (const path of paths.map((p) => resolve(p))) {
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new Error(`${path}: no such file or directory`);
    if (info.isFile() && !supported(path)) {
      throw new Error(`${path}: not a supported file (HTML, Markdown, text or JSONL records)`);
    }
    await walk(path, info.isFile() ? resolve(path, '..') : path, sources);
  }
  return sources;
}

function linkOf(source: Source, baseUrl: string | undefined, rootOf: (folder: string) => number): string {
  const path = relative(source.root, source.file).split(/[\\/]/);
  if (!baseUrl) return keptLink(rootOf(source.root), path.join('/'));
  return new URL(
    path.map(encodeURIComponent).join('/'),
    baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`,
  ).toString();
}

/**
 * A file's document. The file is kept when the document is linked by its path: a page that
 * names its canonical address is linked there instead, and needs no copy here.
 */
function fileDocument(reader: Reader, content: string, link: string): SearchDocument {
  const doc = reader.read(content, link);
  return link.startsWith('/') && doc.link === link ? { ...doc, file: { type: reader.type, content } } : doc;
}

export async function ingest(
  index: SearchIndex,
  paths: readonly string[],
  options: IngestOptions = {},
): Promise<IngestResult> {
  const sources = await sourcesOf(paths);
  const roots = new Map<string, number>();
  const rootOf = (folder: string) => {
    let root = roots.get(folder);
    if (root === undefined) roots.set(folder, (root = index.root(folder)));
    return root;
  };
  const progress: Progress = {
    bytes: 0,
    totalBytes: sources.reduce((sum, s) => sum + s.size, 0),
    documents: 0,
    rejected: 0,
  };
  const rejections: Rejection[] = [];
  let batch: SearchDocument[] = [];
  let characters = 0;
  const flush = () => {
    index.add(batch);
    progress.documents += batch.length;
    batch = [];
    characters = 0;
    options.onProgress?.({ ...progress });
  };
  const reject = (where: string, problems: readonly { field: string; rule: string }[]) => {
    progress.rejected += 1;
    // Enough to fix a broken export; a million bad lines are counted, not kept.
    for (const problem of problems) if (rejections.length < 100) rejections.push({ where, ...problem });
  };
  for (const source of sources) {
    const extension = extname(source.file).toLowerCase();
    if (RECORDS.has(extension)) {
      let line = 0;
      const lines = createInterface({ input: createReadStream(source.file), crlfDelay: Infinity });
      for await (const text of lines) {
        line += 1;
        progress.bytes += Buffer.byteLength(text) + 1;
        if (text.trim() === '') continue;
        const where = `${source.file}:${line}`;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          reject(where, [{ field: 'line', rule: `must be JSON (${(error as Error).message})` }]);
          continue;
        }
        const doc = recordToDocument(value);
        if (Array.isArray(doc)) reject(where, doc);
        else batch.push(doc);
        if (batch.length >= BATCH) flush();
      }
    } else {
      const reader = READERS[extension];
      const content = await readFile(source.file, 'utf8');
      progress.bytes += source.size;
      if (reader) batch.push(fileDocument(reader, content, linkOf(source, options.baseUrl, rootOf)));
      characters += content.length;
      if (batch.length >= BATCH || characters >= BATCH_CHARACTERS) flush();
    }
  }
  flush();
  return { ...progress, files: sources.length, rejections };
}
