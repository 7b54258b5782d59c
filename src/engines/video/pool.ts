/**
 * The video engine's steps on worker threads: a render draws every frame in JavaScript, seconds
 * of CPU that would otherwise stall the server's requests.
 */
import { UnreadableImage } from '../image-codec.js';
import { scriptNextTo, StepPool } from '../worker-pool.js';
import type * as steps from './steps.js';

export class VideoPool extends StepPool<typeof steps> {
  constructor(size: number) {
    super(scriptNextTo(import.meta.url, 'video-worker'), size, { UnreadableImage });
  }
}
