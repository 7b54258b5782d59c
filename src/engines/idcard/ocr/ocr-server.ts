/**
 * The client of native/ocr-server (built by `make build` into dist/native): one Tesseract process
 * per thread that keeps its models loaded, so a batch costs its recognition only, not a model
 * load (about 0.1 s of CPU each) and a fork of this process (tens of milliseconds once the heap
 * is large). Requests go one at a time, in order; the process ends when this thread does (its
 * stdin closes). Where the helper is not built, the reader runs the Tesseract CLI instead.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** The same place from src/ (tests) and from dist/ (the built server): both sit at the same depth. */
export const OCR_SERVER = fileURLToPath(new URL('../../../../dist/native/ocr-server', import.meta.url));

export interface OcrRequest {
  language: string;
  psm: number;
  whitelist?: string;
  images: readonly { width: number; height: number; data: Uint8Array }[];
}

export class OcrServerFailed extends Error {}

type Server = ChildProcessByStdio<Writable, Readable, Readable>;

interface Waiting {
  resolve: (hocr: string) => void;
  reject: (error: Error) => void;
}

class OcrServer {
  private readonly child: Server;
  private readonly waiting: Waiting[] = [];
  private buffered = Buffer.alloc(0);
  private stderr = '';
  private ended = false;

  constructor(private readonly onEnd: () => void) {
    this.child = spawn(OCR_SERVER, [], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // One thread: the reader runs one card per core, and OpenMP threads only contend.
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on(
      'data',
      (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-2000)),
    );
    this.child.on('error', (error) => this.end(error.message));
    // A helper that died mid-request closes its pipe: the write fails, and the exit says why.
    this.child.stdin.on('error', () => this.kill());
    this.child.on('close', (code, signal) => this.end(`exited with ${signal ?? code}`));
    // An idle helper does not keep the thread alive; a request in progress does.
    this.idle(true);
  }

  send(request: OcrRequest): Promise<string> {
    if (this.ended) return Promise.reject(new OcrServerFailed('the OCR server has ended'));
    const parts: Buffer[] = [
      Buffer.from(
        `${request.language} ${request.psm} ${request.whitelist || '-'} ${request.images.length}\n`,
      ),
    ];
    for (const image of request.images) {
      parts.push(Buffer.from(`${image.width} ${image.height}\n`));
      parts.push(Buffer.from(image.data.buffer, image.data.byteOffset, image.width * image.height));
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.idle(false);
      this.child.stdin.write(Buffer.concat(parts));
    });
  }

  /** Ends the process: its work for an aborted request would only hold up the next one. */
  kill(): void {
    this.child.kill('SIGKILL');
  }

  private idle(idle: boolean): void {
    // The pipes are sockets, which can be unreferenced like the process.
    const handles = [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as unknown as {
      ref(): void;
      unref(): void;
    }[];
    for (const handle of handles)
      if (idle) handle.unref();
      else handle.ref();
  }

  /** Answers are "ok BYTES\n" or "error BYTES\n" and the body; they come in the order asked. */
  private receive(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const newline = this.buffered.indexOf(10);
      if (newline < 0) return;
      const [status, bytes] = this.buffered.subarray(0, newline).toString().split(' ');
      const length = Number(bytes);
      if (!Number.isInteger(length) || length < 0) {
        this.kill();
        return;
      }
      if (this.buffered.length < newline + 1 + length) return;
      const body = this.buffered.subarray(newline + 1, newline + 1 + length).toString('utf8');
      this.buffered = this.buffered.subarray(newline + 1 + length);
      const waiting = this.waiting.shift();
      if (this.waiting.length === 0) this.idle(true);
      if (status === 'ok') waiting?.resolve(body);
      else waiting?.reject(new OcrServerFailed(body));
    }
  }

  private end(why: string): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd();
    const detail = this.stderr.trim();
    for (const waiting of this.waiting.splice(0))
      waiting.reject(new OcrServerFailed(`the OCR server ${why}${detail ? `: ${detail}` : ''}`));
  }
}

let server: OcrServer | undefined;

/** Whether the helper is built. */
export const ocrServerBuilt = (): boolean => existsSync(OCR_SERVER);

/** hOCR of every image of the request, pages numbered from 1, as the Tesseract CLI writes it. */
export async function ocrByServer(request: OcrRequest, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  const current = (server ??= new OcrServer(() => {
    if (server === current) server = undefined;
  }));
  const onAbort = () => current.kill();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await current.send(request);
  } catch (error) {
    throw signal?.aborted ? signal.reason : error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
