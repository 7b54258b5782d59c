/**
 * The sound of a video that asks for one (dance `generate_audio` on the model that has sound):
 * an instrumental the music engine composes from the video's prompt, as long as the video.
 */
import { encodeAudio } from '../../engines/audio/ffmpeg.js';
import { mix } from '../../engines/audio/pcm.js';
import type { AudioPool } from '../../engines/audio/pool.js';
import { voiceFor } from '../../engines/audio/singer.js';

export class SoundTrack {
  constructor(private readonly engine: AudioPool) {}

  async trackFor(prompt: string, seed: number, seconds: number): Promise<Buffer> {
    const take = await this.engine.run('compose', {
      seed,
      style: prompt,
      instrumental: true,
      voice: voiceFor(undefined, seed),
      maxSeconds: seconds,
      seconds,
    });
    return encodeAudio(mix(Object.values(take.stems)), 'wav');
  }
}
