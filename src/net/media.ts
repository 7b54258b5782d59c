/**
 * Reading the media a client sends by URL: inline `data:` URLs, this service's own `/files/`
 * (straight from the blob store), or http(s) through the outbound guard. Every failure names the
 * field: a client sees `start_image_url: resolves to 10.0.0.5, which is not allowed`.
 */
import type { Blobs } from '../store/blobs.js';
import { ServiceError } from '../errors.js';
import { OutboundRefused, ResponseTooLarge, type OutboundGuard } from './guard.js';

export interface MediaSources {
  guard: OutboundGuard;
  blobs: Blobs;
  publicBaseUrl: string;
}

function tooLarge(field: string, maxBytes: number): ServiceError {
  return new ServiceError(
    'payload_too_large',
    `${field}: is larger than ${Math.round(maxBytes / 1_048_576)} MB`,
  );
}

function bad(field: string, rule: string): ServiceError {
  return new ServiceError('bad_request', `${field}: ${rule}`, { details: [{ field, rule }] });
}

function decodeDataUrl(field: string, url: string, maxBytes: number): Buffer {
  const comma = url.indexOf(',');
  if (comma < 0) throw bad(field, 'is not a valid data: URL');
  const meta = url.slice(5, comma);
  const payload = url.slice(comma + 1);
  let data: Buffer;
  if (/;base64$/i.test(meta)) data = Buffer.from(payload, 'base64');
  else {
    try {
      data = Buffer.from(decodeURIComponent(payload));
    } catch {
      throw bad(field, 'is not a valid data: URL (a % escape that is not UTF-8)');
    }
  }
  if (data.length > maxBytes) throw tooLarge(field, maxBytes);
  return data;
}

async function readOwnFile(
  field: string,
  key: string,
  sources: MediaSources,
  maxBytes: number,
): Promise<Buffer> {
  const info = await sources.blobs.stat(key);
  if (!info) throw bad(field, 'names a file of this service that does not exist');
  if (info.size > maxBytes) throw tooLarge(field, maxBytes);
  const chunks: Buffer[] = [];
  for await (const chunk of await sources.blobs.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function fetchInput(
  sources: MediaSources,
  field: string,
  url: string,
  maxBytes: number,
): Promise<Buffer> {
  // Schemes are case-insensitive: DATA: is data:.
  if (/^data:/i.test(url)) return decodeDataUrl(field, url, maxBytes);
  const own = `${sources.publicBaseUrl}/files/`;
  if (url.startsWith(own)) return readOwnFile(field, url.slice(own.length), sources, maxBytes);
  try {
    const response = await sources.guard.request(url, { maxBytes });
    if (response.status < 200 || response.status >= 300) {
      throw bad(field, `could not be fetched (the server answered ${response.status})`);
    }
    return response.body;
  } catch (error) {
    if (error instanceof ResponseTooLarge) throw tooLarge(field, maxBytes);
    if (error instanceof OutboundRefused) throw bad(field, error.message);
    throw error;
  }
}
