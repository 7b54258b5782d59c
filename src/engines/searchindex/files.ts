/**
 * The files indexed from folders, kept whole in the index under their links (the file's path
 * below the folder indexed, from `/`), so that a server can hand them out to whoever follows a
 * result, on any machine the index file was copied to. A link's key is an HMAC of the link under
 * the index's own secret: the same on every copy, unguessable without it, so a file opens only
 * for someone a search gave its link to, as a produced file opens only by its random name.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { KeptFile } from './types.js';

/** 22 base64url characters: 132 bits of the HMAC. */
const KEY_LENGTH = 22;

export class KeptFiles {
  private readonly secret: string;
  private readonly keep: Database.Statement<[string, string, string]>;
  private readonly read: Database.Statement<[string], KeptFile>;

  constructor(db: Database.Database) {
    const row = db
      .prepare<[], { value: string }>("SELECT value FROM settings WHERE name = 'file_secret'")
      .get();
    if (!row) throw new Error('the search index has no file secret');
    this.secret = row.value;
    this.keep = db.prepare('INSERT OR REPLACE INTO files (link, type, content) VALUES (?, ?, ?)');
    this.read = db.prepare('SELECT type, content FROM files WHERE link = ?');
  }

  /** Keeps a document's file under its link; inside the caller's transaction. */
  put(link: string, file: KeptFile): void {
    this.keep.run(link, file.type, file.content);
  }

  key(link: string): string {
    return createHmac('sha256', this.secret).update(link).digest('base64url').slice(0, KEY_LENGTH);
  }

  /** The file kept under `link`, when `key` is that link's own; undefined otherwise. */
  get(link: string, key: string): KeptFile | undefined {
    const own = Buffer.from(this.key(link));
    const given = Buffer.from(key);
    if (own.length !== given.length || !timingSafeEqual(own, given)) return undefined;
    return this.read.get(link);
  }
}
