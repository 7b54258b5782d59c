/** The local music engine: composing, separating, singing and mastering songs; ffmpeg for files. */
// ffmpeg itself runs in the pool's steps (files.ts); callers tell its refusals apart.
export { UnreadableAudio } from './ffmpeg.js';
// The instruments' player or soundfont is not installed: the message names the Debian package.
export { InstrumentsMissing } from './synth/fluidsynth.js';
// Festival, which sings English words, or its voice is not installed: the message names the packages.
export { VoiceMissing } from './voice/festival.js';
// The steps the pool runs on its worker threads, as a type (`StepRunner<typeof steps>`).
export type * as steps from './jobs.js';
export type { Analysis, Stems, Take } from './jobs.js';
export { durationOf, silence, slice, type Pcm } from './dsp/pcm.js';
export type { SongPlan, SongSpec } from './compose/plan.js';
export { styleFromPrompt, titleFrom, writeLyrics } from './compose/lyric-writer.js';
export { voiceFor, type Voice } from './voice/singer.js';
export { AudioPool } from './pool.js';
