/**
 * The files indexed from folders, kept whole in the index so that a server can hand them out to
 * whoever follows a result, on any machine the index file was copied to. Each folder indexed is a
 * root with an id of its own, and a kept file's link is `/<root>/<path>`, its path below the
 * folder. A root's key is an HMAC of its id under the index's own secret: the same on every copy,
 * unguessable without it, so a folder's files open only for someone a search gave a link to, as a
 * produced file opens only by its random name. One key for a whole folder keeps the relative
 * links between its pages working, as they do on the disk; a key opens only the paths kept under
 * its own root, never another folder's.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { KeptFile } from './types.js';

/** 22 base64url characters: 132 bits of the HMAC. */
const KEY_LENGTH = 22;

/** Where a kept file is handed out: its root's key and its path below the folder (no leading `/`). */
export interface KeptAddress {
  key: string;
  path: string;
}

const KEPT_LINK = /^\/(\d+)\/(.+)$/s;

/** A kept file's link: its root's id and its path below the folder, `/`-separated. */
export function keptLink(root: number, path: string): string {
  return `/${root}/${path}`;
}

export class KeptFiles {
  private readonly secret: string;
  private readonly keep: Database.Statement<[string, string, string]>;
  private readonly read: Database.Statement<[string], KeptFile>;
  private readonly addRoot: Database.Statement<[string]>;
  private readonly rootOfFolder: Database.Statement<[string], { id: number }>;
  private readonly roots: Database.Statement<[], { id: number }>;
  /** Each root's key, as bytes to compare: roots are few, and one HMAC each is enough. */
  private readonly keys = new Map<number, Buffer>();

  constructor(db: Database.Database) {
    const row = db
      .prepare<[], { value: string }>("SELECT value FROM settings WHERE name = 'file_secret'")
      .get();
    if (!row) throw new Error('the search index has no file secret');
    this.secret = row.value;
    this.keep = db.prepare('INSERT OR REPLACE INTO files (link, type, content) VALUES (?, ?, ?)');
    this.read = db.prepare('SELECT type, content FROM files WHERE link = ?');
    this.addRoot = db.prepare('INSERT OR IGNORE INTO roots (folder) VALUES (?)');
    this.rootOfFolder = db.prepare('SELECT id FROM roots WHERE folder = ?');
    this.roots = db.prepare('SELECT id FROM roots');
  }

  /** The root of the folder at `folder` (an absolute path): the same each time it is indexed. */
  root(folder: string): number {
    this.addRoot.run(folder);
    const row = this.rootOfFolder.get(folder);
    if (!row) throw new Error(`the search index lost the root of ${folder}`);
    return row.id;
  }

  /** Keeps a document's file under its link; inside the caller's transaction. */
  put(link: string, file: KeptFile): void {
    if (!KEPT_LINK.test(link)) throw new Error(`${link} is not the link of a kept file`);
    this.keep.run(link, file.type, file.content);
  }

  /** Where the file of a kept link is handed out; undefined for any other link. */
  address(link: string): KeptAddress | undefined {
    const match = KEPT_LINK.exec(link);
    if (!match) return undefined;
    return { key: this.key(Number(match[1])).toString(), path: match[2] ?? '' };
  }

  /** The file kept at `path` below the root whose key is `key`; undefined otherwise. */
  get(key: string, path: string): KeptFile | undefined {
    const given = Buffer.from(key);
    // Every root's key compared in full: how long it takes tells nothing of which one is near.
    let found: number | undefined;
    for (const { id } of this.roots.all()) {
      const own = this.key(id);
      if (own.length === given.length && timingSafeEqual(own, given)) found = id;
    }
    return found === undefined ? undefined : this.read.get(keptLink(found, path));
  }

  private key(root: number): Buffer {
    let key = this.keys.get(root);
    if (!key) {
      key = Buffer.from(
        createHmac('sha256', this.secret).update(`root ${root}`).digest('base64url').slice(0, KEY_LENGTH),
      );
      this.keys.set(root, key);
    }
    return key;
  }
}
