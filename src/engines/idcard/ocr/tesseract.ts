/**
 * Tesseract (from Debian) over a batch of images: by the helper that keeps its models loaded
 * (ocr-server.ts) where it is built, else by the CLI, run once per batch so that the model loads
 * once for all of its images (a load costs about as much as recognising a line); the CLI reads
 * PGM files (no compression to pay for). Words come back from hOCR with a box and a confidence
 * for every character (TSV has them per word only, and a Chinese word is several characters).
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withTemp } from '../../media-tools.js';
import type { Box } from '../layout.js';
import { ocrByServer, ocrServerBuilt } from './ocr-server.js';

/** An 8-bit grey image (0 black, 255 white). */
export interface GreyRaster {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface OcrChar {
  char: string;
  /** Tesseract's confidence, 0–100. */
  confidence: number;
  box: Box;
}

export interface OcrWord {
  text: string;
  /** Tesseract's confidence, 0–100. */
  confidence: number;
  box: Box;
  chars: OcrChar[];
}

export interface OcrSettings {
  language: 'chi_sim' | 'eng';
  /** Tesseract's page segmentation mode: 6 a block of lines, 7 one line, 13 one line taken as it is. */
  psm: 6 | 7 | 13;
  /** Characters the recogniser may answer with; all of the model's when absent. */
  whitelist?: string;
}

export class OcrFailed extends Error {}

function pgm(image: GreyRaster): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`), image.data]);
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

const box = (left: string, top: string, right: string, bottom: string): Box => ({
  x: Number(left),
  y: Number(top),
  width: Number(right) - Number(left),
  height: Number(bottom) - Number(top),
});

/** The elements of Tesseract's hOCR the reader uses (pages, words, characters), in document order. */
const HOCR =
  /class='ocr_page' id='page_(\d+)'|class='ocrx_word' id='[^']*' title='bbox (\d+) (\d+) (\d+) (\d+); x_wconf (\d+)'|class='ocrx_cinfo' title='x_bboxes (\d+) (\d+) (\d+) (\d+); x_conf ([\d.]+)'>([^<]*)</g;

/** Parses Tesseract's hOCR into the words of each page (one page per input image). */
export function wordsOf(hocr: string, pages: number): OcrWord[][] {
  const result: OcrWord[][] = Array.from({ length: pages }, () => []);
  let page: OcrWord[] | undefined;
  let word: OcrWord | undefined;
  for (const m of hocr.matchAll(HOCR)) {
    if (m[1] !== undefined) {
      page = result[Number(m[1]) - 1];
      word = undefined;
    } else if (m[2] !== undefined) {
      word = { text: '', confidence: Number(m[6]), box: box(m[2], m[3]!, m[4]!, m[5]!), chars: [] };
      page?.push(word);
    } else if (word && m[7] !== undefined) {
      const char = m[12]!.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]!).trim();
      if (!char) continue;
      word.chars.push({ char, confidence: Number(m[11]), box: box(m[7], m[8]!, m[9]!, m[10]!) });
      word.text += char;
    }
  }
  return result.map((words) => words.filter((w) => w.text !== ''));
}

function tesseract(args: string[], signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      // One thread: the reader runs one card per core, and OpenMP threads only contend.
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      signal,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT' ? new OcrFailed('tesseract is not installed (Debian: tesseract-ocr)') : error,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(new OcrFailed(`tesseract exited with ${code}: ${Buffer.concat(err).toString('utf8').trim()}`));
    });
  });
}

/** hOCR of the batch from the Tesseract CLI: one process, its images listed in a file. */
export function ocrByCli(
  images: readonly GreyRaster[],
  settings: OcrSettings,
  signal?: AbortSignal,
): Promise<string> {
  return withTemp(async (dir) => {
    const paths = images.map((_, i) => join(dir, `${i}.pgm`));
    await Promise.all(images.map((image, i) => writeFile(paths[i]!, pgm(image))));
    const list = join(dir, 'images.txt');
    await writeFile(list, paths.join('\n') + '\n');
    // The crops carry no resolution; stating one spares Tesseract a guess per image.
    const args = [list, '-', '-l', settings.language, '--psm', String(settings.psm), '--dpi', '300'];
    args.push('-c', 'hocr_char_boxes=1');
    if (settings.whitelist) args.push('-c', `tessedit_char_whitelist=${settings.whitelist}`);
    args.push('hocr');
    return tesseract(args, signal);
  });
}

/** The words Tesseract reads in each image, in the images' order. */
export async function recognise(
  images: readonly GreyRaster[],
  settings: OcrSettings,
  signal?: AbortSignal,
): Promise<OcrWord[][]> {
  if (images.length === 0) return [];
  signal?.throwIfAborted();
  const hocr = ocrServerBuilt()
    ? await ocrByServer({ ...settings, images }, signal)
    : await ocrByCli(images, settings, signal);
  return wordsOf(hocr, images.length);
}
