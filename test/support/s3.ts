/**
 * A real S3-compatible server on loopback for the tests: s3rver behind a SigV4 signature check
 * (see s3-server.ts), in a child process with a fresh directory, and one bucket created through
 * the SDK.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

/** The only key pair s3rver knows. */
export const S3_KEYS = { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' } as const;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** A client with the right keys, for arranging objects behind the store's back. */
  client: S3Client;
  /** The `blobs.s3` configuration that reaches this server. */
  config: Record<string, unknown>;
  close(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function startS3(bucket = 'switchyard-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-s3-'));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '--import', 'tsx', 'test/support/s3-server.ts', directory],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the S3 server exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: S3_KEYS.access_key_id, secretAccessKey: S3_KEYS.secret_access_key },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    client,
    config: { bucket, endpoint, force_path_style: true, ...S3_KEYS },
    async close() {
      client.destroy();
      child.stdin.end();
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
