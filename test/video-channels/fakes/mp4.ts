/**
 * The video every fake vendor hands out: one second of ffmpeg's test pattern, 320×240 at 24 fps,
 * H.264 in MP4. Made once per test process, so that a download proves a playable file came back.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
let made: Promise<Buffer> | undefined;

export function tinyMp4(): Promise<Buffer> {
  made ??= (async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'video-channels-')), 'clip.mp4');
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=24',
      '-t',
      '1',
      '-pix_fmt',
      'yuv420p',
      path,
    ]);
    return readFile(path);
  })();
  return made;
}
