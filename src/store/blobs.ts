/**
 * The blob store: media the service produces, under unguessable keys. This is the local-directory
 * store; an S3-compatible store implements the same `Blobs` port.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
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
}

export function isBlobKey(key: string): boolean {
  const match = KEY.exec(key);
  return match !== null && CONTENT_TYPES[match[1] as string] !== undefined;
}

export class DirectoryBlobs implements Blobs {
  constructor(private readonly dir: string) {}

  async put(data: Buffer, extension: string): Promise<string> {
    if (!CONTENT_TYPES[extension]) throw new Error(`blob extension ${extension} has no content type`);
    await mkdir(this.dir, { recursive: true });
    const key = `${randomBytes(24).toString('base64url')}.${extension}`;
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
      const type = CONTENT_TYPES[extname(key).slice(1)] as string;
      return { size: info.size, contentType: type, modifiedAt: info.mtime };
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
}
