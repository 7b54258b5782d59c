/**
 * Independent QR decoders for the tests: jsQR (pure JavaScript) and ZXing's C++ reader compiled
 * to WebAssembly (loaded from the package's own .wasm, never fetched), plus zbarimg when the
 * machine has it. Each answers the decoded text, or null when it cannot read the image.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);
const wasm = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
let prepared: Promise<unknown> | undefined;

// A CommonJS module whose typings declare an ES default export: the function is the module.
type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: JsQr }).default ?? jsQRModule) as unknown as JsQr;

export function decodeWithJsqr(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}

export async function decodeWithZxing(png: Buffer): Promise<string | null> {
  prepared ??= prepareZXingModule({
    overrides: { wasmBinary: readFileSync(wasm).buffer as ArrayBuffer },
    fireImmediately: true,
  });
  await prepared;
  const image = PNG.sync.read(png);
  const [first] = await readBarcodes(
    {
      data: new Uint8ClampedArray(image.data),
      width: image.width,
      height: image.height,
      colorSpace: 'srgb',
    } as Parameters<typeof readBarcodes>[0] & object,
    { formats: ['QRCode'], tryHarder: true },
  );
  return first?.isValid ? first.text : null;
}

const run = promisify(execFile);
let zbar: boolean | undefined;

/**
 * zbarimg's reading, as the scanners built on zbar show it: the bytes turned into text by the
 * charset the code's ECI names, or by zbar's guess when it names none (UTF-8 CJK without an ECI
 * reads as Shift-JIS). Undefined when zbarimg is not installed.
 */
export async function decodeWithZbar(png: Buffer): Promise<string | null | undefined> {
  zbar ??= await run('zbarimg', ['--version']).then(
    () => true,
    () => false,
  );
  if (!zbar) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'zbar-'));
  try {
    const file = join(dir, 'code.png');
    writeFileSync(file, png);
    const { stdout } = await run('zbarimg', ['--quiet', '--raw', file]).catch(() => ({
      stdout: '',
    }));
    return stdout === '' ? null : stdout.replace(/\n$/, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
