/**
 * Result items per family. clip and maxi: the Music item shape with the video fields (spec:
 * `video_url`, `image_url` as cover, `duration`, `state`, plus `width`, `height`, `fps`);
 * dance: the Video task item.
 */
import type { VideoFamily } from './channels/types.js';

export interface Finished {
  id: string;
  model: string;
  prompt: string;
  videoUrl: string;
  coverUrl: string;
  lastFrameUrl?: string;
  width: number;
  height: number;
  fps: number;
  duration: number;
  seed: number;
  resolution: string;
  ratio: string;
  usage?: { completion_tokens: number; total_tokens: number };
  /** Nouns of the prompt the local renderer has nothing for; absent for an upstream's video. */
  unknownNouns?: string[];
  /** Nouns the local renderer drew as a more general word ("heron" as "bird"). */
  standIns?: { noun: string; as: string }[];
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Tokens as the dance origin bills them: width × height × frames per second × seconds / 1024. */
export function danceUsage(width: number, height: number, fps: number, seconds: number) {
  const tokens = Math.round((width * height * fps * seconds) / 1024);
  return { completion_tokens: tokens, total_tokens: tokens };
}

/** What the local renderer made of the prompt's nouns; nothing for an upstream's video. */
const nounsOf = (video: Finished) => ({
  ...(video.unknownNouns ? { unknown_nouns: video.unknownNouns } : {}),
  ...(video.standIns ? { stand_ins: video.standIns.map(({ noun, as }) => ({ noun, drawn_as: as })) } : {}),
});

export function itemOf(
  family: VideoFamily,
  video: Finished,
  input: Record<string, unknown>,
): Record<string, unknown> {
  if (family === 'dance') {
    const now = Math.floor(Date.now() / 1000);
    return {
      id: video.id,
      model: video.model,
      content: {
        video_url: video.videoUrl,
        ...(video.lastFrameUrl ? { last_frame_url: video.lastFrameUrl } : {}),
      },
      seed: video.seed,
      resolution: video.resolution,
      ratio: video.ratio,
      duration: round(video.duration),
      framespersecond: video.fps,
      service_tier: typeof input.service_tier === 'string' ? input.service_tier : 'default',
      execution_expires_after:
        typeof input.execution_expires_after === 'number' ? input.execution_expires_after : 172800,
      usage: video.usage ?? danceUsage(video.width, video.height, video.fps, video.duration),
      ...nounsOf(video),
      created_at: now,
      updated_at: now,
    };
  }
  return {
    id: video.id,
    model: video.model,
    title: '',
    prompt: video.prompt,
    duration: round(video.duration),
    video_url: video.videoUrl,
    image_url: video.coverUrl,
    audio_url: '',
    width: video.width,
    height: video.height,
    fps: video.fps,
    ...nounsOf(video),
    created_at: new Date().toISOString(),
  };
}
