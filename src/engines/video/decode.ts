/**
 * Video files back to pixels: reference videos (MP4 or MOV) become frames to restyle or learn
 * from, and a rendered MP4's last frame is read back from the file itself, so the still a client
 * gets is exactly the frame a player shows.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Canvas } from '../canvas.js';
import { run, VideoToolError, withTemp } from './tools.js';

export interface DecodedVideo {
  frames: Canvas[];
  fps: number;
  width: number;
  height: number;
  /** Seconds, of the whole file. */
  duration: number;
}

interface Probe {
  streams?: {
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    r_frame_rate?: string;
    duration?: string;
  }[];
  format?: { duration?: string };
}

const rate = (text: string | undefined) => {
  const [n, d = '1'] = (text ?? '').split('/');
  const value = Number(n) / Number(d);
  return Number.isFinite(value) && value > 0 ? value : undefined;
};

/** Cuts raw RGBA output into canvases of width × height. */
function canvases(raw: Buffer, width: number, height: number): Canvas[] {
  const size = width * height * 4;
  const out: Canvas[] = [];
  for (let o = 0; o + size <= raw.length; o += size)
    out.push({ width, height, data: new Uint8Array(raw.subarray(o, o + size)) });
  return out;
}

/**
 * Up to `maxFrames` frames from the start of a video, scaled to `width` columns when given (the
 * height follows the shape, rounded to even); with its frame rate, size and duration.
 */
export async function decodeFrames(
  video: Buffer,
  maxFrames: number,
  width?: number,
  signal?: AbortSignal,
): Promise<DecodedVideo> {
  return withTemp(async (dir) => {
    const path = join(dir, 'input');
    await writeFile(path, video);
    const probe = JSON.parse(
      (
        await run(
          'ffprobe',
          [
            '-select_streams',
            'v:0',
            '-show_entries',
            'stream=width,height,avg_frame_rate,r_frame_rate,duration:format=duration',
            '-of',
            'json',
            path,
          ],
          signal,
        )
      ).toString('utf8'),
    ) as Probe;
    const stream = probe.streams?.[0];
    if (!stream?.width || !stream.height) throw new VideoToolError('holds no video stream');
    const fps = rate(stream.avg_frame_rate) ?? rate(stream.r_frame_rate) ?? 24;
    const outWidth = width ?? stream.width;
    const outHeight = width
      ? Math.max(2, 2 * Math.round((stream.height * width) / stream.width / 2))
      : stream.height;
    const scale = width ? ['-vf', `scale=${outWidth}:${outHeight}:flags=area`] : [];
    const raw = await run(
      'ffmpeg',
      [
        '-threads',
        '1',
        '-i',
        path,
        '-an',
        ...scale,
        '-frames:v',
        String(maxFrames),
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgba',
        'pipe:1',
      ],
      signal,
    );
    return {
      frames: canvases(raw, outWidth, outHeight),
      fps,
      width: outWidth,
      height: outHeight,
      duration: Number(probe.format?.duration ?? stream.duration ?? 0),
    };
  });
}

/** Frame `index` of an MP4, decoded by ffmpeg as every player would. */
export async function frameAt(
  mp4: Buffer,
  index: number,
  width: number,
  height: number,
  signal?: AbortSignal,
): Promise<Canvas> {
  return withTemp(async (dir) => {
    const path = join(dir, 'video.mp4');
    await writeFile(path, mp4);
    const raw = await run(
      'ffmpeg',
      [
        '-threads',
        '1',
        '-i',
        path,
        '-an',
        '-vf',
        `select=eq(n\\,${index})`,
        '-fps_mode',
        'passthrough',
        '-frames:v',
        '1',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgba',
        'pipe:1',
      ],
      signal,
    );
    const [frame] = canvases(raw, width, height);
    if (!frame) throw new VideoToolError(`has no frame ${index}`);
    return frame;
  });
}

/**
 * The last of `frames` frames of a video we encoded (encode.ts makes it a key frame): seeking to
 * its time decodes that one frame alone, which is exactly what decoding the whole file would give
 * there. Should the seek land past it, the whole file is decoded after all.
 */
export async function lastFrameOf(
  mp4: Buffer,
  frames: number,
  fps: number,
  width: number,
  height: number,
  signal?: AbortSignal,
): Promise<Canvas> {
  const at = (Math.round(((frames - 1) / fps) * 1e6) / 1e6).toFixed(6);
  const [frame] = await withTemp(async (dir) => {
    const path = join(dir, 'video.mp4');
    await writeFile(path, mp4);
    const raw = await run(
      'ffmpeg',
      [
        '-threads',
        '1',
        '-ss',
        at,
        '-i',
        path,
        '-an',
        '-frames:v',
        '1',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgba',
        'pipe:1',
      ],
      signal,
    );
    return canvases(raw, width, height);
  });
  return frame ?? frameAt(mp4, frames - 1, width, height, signal);
}
