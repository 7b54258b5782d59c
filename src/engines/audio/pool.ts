/**
 * The music engine's steps on worker threads: composing, separating and mastering take from
 * hundreds of milliseconds to seconds of CPU, which would otherwise stall the server's requests.
 */
import { scriptNextTo, StepPool } from '../worker-pool.js';
import { UnreadableAudio } from './ffmpeg.js';
import { InstrumentsMissing } from './synth/fluidsynth.js';
import { VoiceMissing } from './voice/festival.js';
import type * as jobs from './jobs.js';

export class AudioPool extends StepPool<typeof jobs> {
  constructor(size: number) {
    super(scriptNextTo(import.meta.url, 'audio-worker'), size, {
      UnreadableAudio,
      InstrumentsMissing,
      VoiceMissing,
    });
  }
}
