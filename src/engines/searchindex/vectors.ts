/**
 * Document embeddings kept in the index file (table `vectors`, schema.ts): each a blob of
 * Float32 numbers under its document's id, written when `switchyard search index` embeds the
 * documents of a corpus small enough (SearchIndex.embedDocuments). A document replaced loses its
 * vector with its row (add-documents.ts).
 */
import type Database from 'better-sqlite3';

/** A document's text as it is embedded. */
export interface EmbeddableDocument {
  id: number;
  title: string;
  text: string;
}

export class StoredVectors {
  private readonly read: Database.Statement<[number], { vector: Buffer }>;
  private readonly write: Database.Statement<[number, Buffer]>;
  private readonly unembedded: Database.Statement<[number], EmbeddableDocument>;

  constructor(private readonly db: Database.Database) {
    this.read = db.prepare('SELECT vector FROM vectors WHERE id = ?');
    this.write = db.prepare('INSERT OR REPLACE INTO vectors (id, vector) VALUES (?, ?)');
    this.unembedded = db.prepare(
      'SELECT d.id, d.title, d.text FROM documents d LEFT JOIN vectors v ON v.id = d.id WHERE v.id IS NULL LIMIT ?',
    );
  }

  /** The vectors kept for these documents; those without one are absent. */
  of(ids: readonly number[]): Map<number, Float32Array> {
    const found = new Map<number, Float32Array>();
    for (const id of ids) {
      const row = this.read.get(id);
      if (row) found.set(id, toVector(row.vector));
    }
    return found;
  }

  /** Keeps vectors, in one transaction. */
  put(entries: readonly (readonly [number, Float32Array])[]): void {
    this.db.transaction(() => {
      for (const [id, vector] of entries)
        this.write.run(id, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
    })();
  }

  /** Up to `count` documents that have no vector yet. */
  missing(count: number): EmbeddableDocument[] {
    return this.unembedded.all(count);
  }
}

/** A blob read back as numbers; copied, since SQLite's buffer need not be aligned for Float32. */
function toVector(blob: Buffer): Float32Array {
  const vector = new Float32Array(blob.byteLength / 4);
  new Uint8Array(vector.buffer).set(blob);
  return vector;
}
