/**
 * The sound of a video that asks for one (dance `generate_audio` on the model that has sound):
 * an instrumental the music engine composes from the video's prompt, as long as the video.
 */
import { voiceFor, type AudioPool } from '../../engines/audio/index.js';

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
    const wav = await this.engine.runWith({ move: true }, 'writeMix', Object.values(take.stems), 'wav');
    return Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
  }
}
