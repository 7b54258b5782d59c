/**
 * The blob store in an S3-compatible bucket (AWS S3, MinIO, R2, Ceph…), for deployments where the
 * API nodes share no disk. Keys are the same unguessable names as in the local directory, at the
 * root of the bucket.
 */
import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../config/index.js';
import { contentTypeOf, isBlobKey, newBlobKey, type BlobInfo, type Blobs } from './blobs.js';

export type S3Options = NonNullable<Config['blobs']['s3']>;

/** The SDK's errors carry the HTTP status; a 404 is an answer (no such object), anything else a fault. */
function isNotFound(error: unknown): boolean {
  return (
    (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode === 404
  );
}

export class S3Blobs implements Blobs {
  private readonly client: S3Client;

  constructor(private readonly options: S3Options) {
    const { access_key_id: id, secret_access_key: secret } = options;
    if ((id === undefined) !== (secret === undefined)) {
      throw new Error('blobs.s3: access_key_id and secret_access_key are given together or not at all');
    }
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.force_path_style,
      // Without keys in the configuration, the SDK's chain (environment, profile, instance role).
      credentials: id && secret ? { accessKeyId: id, secretAccessKey: secret } : undefined,
      // Recent SDKs add CRC32 checksums to every request by default; many S3-compatible servers
      // reject or mishandle them, so they go only where an operation requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(data: Buffer, extension: string): Promise<string> {
    const key = newBlobKey(extension);
    // A PUT is atomic in S3: readers see the whole object or none, so no write-aside is needed.
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        Body: data,
        ContentType: contentTypeOf(key),
      }),
    );
    return key;
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    // Never ask the bucket about names that are not ours (other objects may share it).
    if (!isBlobKey(key)) return undefined;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return {
        size: head.ContentLength ?? 0,
        contentType: head.ContentType ?? contentTypeOf(key),
        modifiedAt: head.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    if (!isBlobKey(key)) throw new Error('not a blob key');
    const answer = await this.client.send(
      new GetObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    // In Node the body is the response stream itself: bytes flow to the client as they arrive.
    if (!answer.Body) throw new Error(`object ${key} came back without a body`);
    return answer.Body as Readable;
  }

  async directUrl(key: string): Promise<string | undefined> {
    if (this.options.files !== 'redirect') return undefined;
    // Signed locally with our keys: no request to the bucket, and the bucket can stay private.
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.options.bucket, Key: key }), {
      expiresIn: this.options.presign_seconds,
    });
  }

  async sweep(maxAgeMs: number): Promise<number> {
    const cutoff = Date.now() - maxAgeMs;
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, ContinuationToken: token }),
      );
      // Only our keys: a shared bucket keeps whatever else it holds.
      const old = (page.Contents ?? [])
        .filter((o) => o.Key && isBlobKey(o.Key) && o.LastModified && o.LastModified.getTime() < cutoff)
        .map((o) => ({ Key: o.Key as string }));
      // A page holds at most 1000 keys, the most one DeleteObjects takes.
      if (old.length > 0) {
        const answer = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: old, Quiet: true } }),
        );
        removed += old.length - (answer.Errors?.length ?? 0);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }

  async check(): Promise<string | undefined> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
      return undefined;
    } catch (error) {
      // The error's name (NotFound, Forbidden, TimeoutError…) tells the operator where to look.
      return `blob bucket does not answer (${(error as Error).name})`;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
