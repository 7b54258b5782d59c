/**
 * The type this maker prints with, all from Debian font packages the Makefile installs:
 * AR PL UMing (a Ming/Song face, fonts-arphic-uming) and WenQuanYi Micro Hei (a sans,
 * fonts-wqy-microhei) for the Chinese, OCR-B (fonts-ocr-b) for the number as on real cards.
 * A missing file is named with its package rather than left to a silent fallback face.
 */
import { existsSync } from 'node:fs';
import { GlobalFonts } from '@napi-rs/canvas';

const FILES = {
  'FC UMing': ['/usr/share/fonts/truetype/arphic/uming.ttc', 'fonts-arphic-uming'],
  'FC MicroHei': ['/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', 'fonts-wqy-microhei'],
  'FC OCR-B': ['/usr/share/fonts/opentype/ocr-b/OCRB.otf', 'fonts-ocr-b'],
} as const;

export type FieldFont = keyof typeof FILES;

let registered = false;

export function registerFieldFonts(): void {
  if (registered) return;
  for (const [family, [path, pkg]] of Object.entries(FILES)) {
    if (!existsSync(path))
      throw new Error(`font ${path} is missing: install the Debian package ${pkg} (make debian)`);
    GlobalFonts.registerFromPath(path, family);
  }
  registered = true;
}
