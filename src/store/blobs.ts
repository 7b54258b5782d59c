/**
 * The blob store: media the service produces, under unguessable keys. This is the port, the key
 * format every store shares, and the local-directory store; `s3-blobs.ts` is the S3-compatible one
 * and `open-blobs.ts` chooses between them.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Readable } from 'node:stream';

/** Content types by extension; a key's extension is chosen from this list when it is stored. */
export const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
};

/** 192 random bits, URL-safe, then the extension. Anything else is not a key of ours. */
const KEY = /^[A-Za-z0-9_-]{32}\.([a-z0-9]{2,4})$/;

export interface BlobInfo {
  size: number;
  contentType: string;
  modifiedAt: Date;
}

export interface Blobs {
  put(data: Buffer, extension: string): Promise<string>;
  stat(key: string): Promise<BlobInfo | undefined>;
  /** A stream of bytes `start`..`end` inclusive (the whole blob when absent). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /**
   * Where a client can fetch the blob directly (a presigned URL of an object store), when the
   * store prefers that to being proxied; undefined to serve it through `/files/`.
   */
  directUrl(key: string): Promise<string | undefined>;
  /** Removes blobs older than `maxAgeMs`; answers how many. */
  sweep(maxAgeMs: number): Promise<number>;
  /** What keeps the store from serving (for `/readyz`), or undefined when it can. */
  check(): Promise<string | undefined>;
  close(): Promise<void>;
}

export function isBlobKey(key: string): boolean {
  const match = KEY.exec(key);
  return match !== null && CONTENT_TYPES[match[1] as string] !== undefined;
}

/** A fresh key for a blob with this extension; every store names blobs this way. */
export function newBlobKey(extension: string): string {
  if (!CONTENT_TYPES[extension]) throw new Error(`blob extension ${extension} has no content type`);
  return `${randomBytes(24).toString('base64url')}.${extension}`;
}

/** The content type of a key of ours, from its extension. */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[extname(key).slice(1)] ?? 'application/octet-stream';
}

export class DirectoryBlobs implements Blobs {
  constructor(private readonly dir: string) {}

  async put(data: Buffer, extension: string): Promise<string> {
    const key = newBlobKey(extension);
    await mkdir(this.dir, { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const partial = join(this.dir, `.${key}.partial`);
    await writeFile(partial, data);
    await rename(partial, join(this.dir, key));
    return key;
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    if (!isBlobKey(key)) return undefined;
    try {
      const info = await stat(join(this.dir, key));
      return { size: info.size, contentType: contentTypeOf(key), modifiedAt: info.mtime };
    } catch {
      return undefined;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    if (!isBlobKey(key)) throw new Error('not a blob key');
    return createReadStream(join(this.dir, key), range);
  }

  async directUrl(): Promise<undefined> {
    return undefined;
  }

  async sweep(maxAgeMs: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    const cutoff = Date.now() - maxAgeMs;
    let removed = 0;
    for (const name of names) {
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile() && info.mtimeMs < cutoff) {
        await unlink(path).catch(() => undefined);
        removed += 1;
      }
    }
    return removed;
  }

  async check(): Promise<string | undefined> {
    try {
      await mkdir(this.dir, { recursive: true });
      await access(this.dir, constants.W_OK);
      return undefined;
    } catch {
      return 'blob directory is not writable';
    }
  }

  async close(): Promise<void> {}
}
