/** Chooses the blob store from the configuration: a bucket when `blobs.s3` is set, else a directory. */
import type { Config } from '../config/index.js';
import { DirectoryBlobs, type Blobs } from './blobs.js';
import { S3Blobs } from './s3-blobs.js';

export function openBlobs(config: Config['blobs']): Blobs {
  return config.s3 ? new S3Blobs(config.s3) : new DirectoryBlobs(config.dir);
}
