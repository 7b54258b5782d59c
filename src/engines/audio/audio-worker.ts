/** A worker thread that runs the music engine's steps for the pool. */
import { serveMethods } from '../worker-methods.js';
import { UnreadableAudio } from './ffmpeg.js';
import * as jobs from './jobs.js';
import { InstrumentsMissing } from './synth/fluidsynth.js';
import { VoiceMissing } from './voice/festival.js';

serveMethods(jobs, { UnreadableAudio, InstrumentsMissing, VoiceMissing });
