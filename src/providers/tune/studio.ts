/**
 * What every music action works with: the request, the token's library of audios, the engine's
 * worker threads, and the way a result becomes a Music item (MP3, cover, video, kept stems).
 */
import {
  durationOf,
  InstrumentsMissing,
  UnreadableAudio,
  VoiceMissing,
  type Analysis,
  type AudioPool,
  type Pcm,
  type SongPlan,
  type Stems,
  type steps,
  type Voice,
} from '../../engines/audio/index.js';
import type { StepRunner } from '../../engines/worker-pool.js';
import { badRequest, ServiceError } from '../../errors.js';
import type { Job } from '../index.js';
import { stableSeed, stableUuid } from '../ids.js';
import { followed, Parts } from '../progress.js';
import type { MusicItem, MusicLibrary, Song, Sound } from './library.js';
import { DEFAULT_MODEL, MAX_SONG_SECONDS, maxSecondsOf } from '../../contract/tune-models.js';

/** Uploads (DECISIONS section 7) and the engine's own stems, read back losslessly. */
const AUDIO_BYTES = 50 * 1024 * 1024;
/** The shortest upload music is made from: a few samples left nothing to encode, nor to draw. */
const MIN_UPLOAD_SECONDS = 1;
const STEM_BYTES = 400 * 1024 * 1024;

/** A result before it has files: stems and what the engine knows of them. */
export interface Made {
  stems: Stems;
  origin: Sound['origin'];
  analysis: Analysis;
  plan?: SongPlan;
  voice?: Voice;
  level?: number;
}

/** The words of a Music item. */
export interface Words {
  title: string;
  style: string;
  lyric: string;
  prompt: string;
}

export interface PublishOptions {
  /** A music video of the cover and the waveform (songs); stems and samples have none. */
  video: boolean;
  /** Stems go out lossless (WAV) so that they sum back to the song. */
  format: 'mp3' | 'wav';
  parentId?: string;
  continueAt?: number;
  /** The cover of the song this item was cut from, instead of a new one. */
  coverUrl?: string;
  /**
   * Whether the stems are kept losslessly for later edits (the default); a vocal extraction is
   * only read again as a voice to learn, for which its MP3 serves.
   */
  lossless?: boolean;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * A task's progress: its work (reading audio, writing lyrics, the engine's steps) up to
 * `MADE`, then the publishing of its items (encoding, the music video, uploading the files),
 * which takes more than half the time of a new song.
 */
const MADE = 0.45;
const PUBLISHED = 0.98;

/**
 * The engine's steps, where a missing instrument or voice package is a 503 naming it (the
 * operator's to install, not the client's fault) rather than a fault of ours.
 */
function unavailableWhenMissing(runner: StepRunner<typeof steps>): StepRunner<typeof steps> {
  const missing = (error: unknown): never => {
    if (error instanceof InstrumentsMissing || error instanceof VoiceMissing)
      throw new ServiceError('busy', `music is unavailable: ${error.message}`);
    throw error;
  };
  return {
    size: runner.size,
    run: (step, ...args) => runner.run(step, ...args).catch(missing),
    runWith: (options, step, ...args) => runner.runWith(options, step, ...args).catch(missing),
  };
}

/** The stage of each engine step until it reports its own (a render says when it sings). */
const STAGES: Partial<Record<keyof typeof steps, string>> = {
  compose: 'compose',
  vary: 'compose',
  recompose: 'compose',
  separate: 'separate',
  vocalsOf: 'separate',
  split: 'separate',
  follow: 'separate',
  shareCodingError: 'separate',
  analyse: 'analyse',
  describeVocal: 'analyse',
  match: 'match',
  master: 'master',
};

export class Studio {
  readonly input: Record<string, unknown>;
  readonly model: string;
  /** Every choice of the task comes from this seed, so that a rerun of the task makes the same items. */
  readonly seed: number;
  private made = 0;
  /** The engine's steps for this task, each followed as a part of its work. */
  readonly engine: StepRunner<typeof steps>;
  private readonly work: Parts;
  private readonly publishing: Parts;

  constructor(
    readonly job: Job,
    readonly library: MusicLibrary,
    private readonly pool: AudioPool,
  ) {
    this.work = new Parts(job, 0, MADE);
    this.publishing = new Parts(job, MADE, PUBLISHED);
    this.engine = unavailableWhenMissing(followed(pool, this.work, (step) => STAGES[step] ?? 'mix'));
    this.input = job.input;
    this.model = text(job.input.model) || DEFAULT_MODEL;
    this.seed = stableSeed(job.taskId);
  }

  get maxSeconds(): number {
    return maxSecondsOf(this.model);
  }

  text(field: string): string {
    return text(this.input[field]);
  }

  number(field: string): number | undefined {
    const value = this.input[field];
    return typeof value === 'number' ? value : undefined;
  }

  /** The n-th item id of the task: the same on a rerun, so nothing is stored twice. */
  itemId(n: number): string {
    return stableUuid(`${this.job.taskId}:${n}`);
  }

  /** An audio of this token, or a 400 naming the field. */
  async song(field: string, id: string): Promise<Song> {
    const song = await this.library.song(this.job.tokenId, id);
    if (!song) throw badRequest([{ field, rule: 'names no audio of this token' }]);
    return song;
  }

  /** Work of the task's own (writing lyrics, reading audio) as a part of its progress. */
  step<T>(stage: string, work: () => Promise<T>): Promise<T> {
    return this.work.step(stage, work);
  }

  /** A file of this service (or any input URL) decoded. */
  async decode(field: string, url: string): Promise<Pcm> {
    return this.step('read', async () => {
      const bytes = await this.job.fetchInput(field, url, STEM_BYTES);
      const [pcm] = await this.read([bytes], MAX_SONG_SECONDS);
      return pcm!;
    });
  }

  private stemFiles(song: Song): Promise<Buffer[]> {
    return Promise.all(
      Object.values(song.sound.stems).map((url) => this.job.fetchInput('audio_id', url, STEM_BYTES)),
    );
  }

  /** The stems of an audio, as the engine kept them. */
  async stemsOf(song: Song): Promise<Stems> {
    return this.step('read', async () => {
      const files = await this.stemFiles(song);
      const pcms = await this.read(files, MAX_SONG_SECONDS);
      return Object.fromEntries(Object.keys(song.sound.stems).map((name, n) => [name, pcms[n]!]));
    });
  }

  /** An audio as one mix of its stems. */
  async mixOf(song: Song): Promise<Pcm> {
    return this.step('read', async () =>
      this.pool.runWith(
        { move: true },
        'readMix',
        await this.stemFiles(song),
        MAX_SONG_SECONDS,
        this.job.deadline,
      ),
    );
  }

  /** Files decoded on a worker thread; they move there, read by nothing else. */
  private read(files: Buffer[], maxSeconds: number): Promise<Pcm[]> {
    return this.pool.runWith({ move: true }, 'readAudio', files, maxSeconds, this.job.deadline);
  }

  /** An uploaded audio (`audio_url`), decoded; what ffmpeg cannot read is a 400 naming the field. */
  async upload(field: string): Promise<Pcm> {
    return this.step('read', async () => {
      const bytes = await this.job.fetchInput(field, this.text(field), AUDIO_BYTES);
      let pcm: Pcm;
      try {
        [pcm] = (await this.read([bytes], this.maxSeconds)) as [Pcm];
      } catch (error) {
        if (error instanceof UnreadableAudio)
          throw badRequest([{ field, rule: `is not audio ffmpeg can read (${error.message})` }]);
        throw error;
      }
      const seconds = durationOf(pcm);
      if (seconds < MIN_UPLOAD_SECONDS) {
        const rule = `must hold at least ${MIN_UPLOAD_SECONDS} s of audio (it holds ${seconds.toFixed(3)} s)`;
        throw badRequest([{ field, rule }]);
      }
      return pcm;
    });
  }

  /**
   * An uploaded `audio_url` kept as an audio of the token (lossless, with its measured tempo and
   * key), so that what is made from it can be joined back onto it.
   */
  async keepUpload(): Promise<Song> {
    const pcm = await this.upload('audio_url');
    const analysis = await this.engine.run('analyse', pcm);
    const id = this.itemId(this.made++);
    const duration = Math.round(durationOf(pcm) * 1000) / 1000;
    const flac = await this.pool.runWith({ move: true }, 'writeMix', [pcm], 'flac', this.job.deadline);
    const url = await this.job.saveFile(bufferOf(flac), 'flac');
    const item: MusicItem = {
      id,
      model: this.model,
      ...wordsOf({ title: '', style: '', lyric: '', prompt: '' }),
      duration,
      audio_url: url,
      image_url: '',
      video_url: '',
      created_at: new Date().toISOString(),
    };
    const sound: Sound = { origin: 'upload', stems: { mix: url }, ...analysis };
    await this.library.saveSong(this.job.tokenId, this.job.taskId, {
      id,
      item,
      sound,
      parentId: null,
      continueAt: null,
    });
    return { id, item, sound, parentId: null, continueAt: null, duration };
  }

  /** Shows the items to come (state running) to watchers while they are made. */
  async announce(items: Words[]): Promise<void> {
    this.publishing.expectMore(items.length);
    const created = new Date().toISOString();
    await this.job.progress(
      items.map((words, n) => ({
        id: this.itemId(this.made + n),
        model: this.model,
        ...wordsOf(words),
        created_at: created,
      })),
    );
  }

  /** Files for a result, the item that names them, and the library entry behind it. */
  async publish(made: Made, words: Words, options: PublishOptions): Promise<MusicItem> {
    const id = this.itemId(this.made++);
    const progress = this.publishing.begin('mix');
    const names = Object.keys(made.stems);
    const files = await this.pool.runWith(
      { onProgress: (step) => progress(step.fraction, step.stage), move: true },
      'itemFiles',
      made.stems,
      {
        format: options.format,
        mp3: options.video && !options.coverUrl && options.format !== 'mp3',
        lossless: options.lossless !== false,
        deadline: this.job.deadline,
      },
    );
    const duration = Math.round(files.duration * 1000) / 1000;
    const audio = bufferOf(files.audio);
    progress(0.3, options.video ? 'render' : 'upload');
    const cover = options.coverUrl
      ? undefined
      : Buffer.from(
          await this.pool.run('cover', {
            title: words.title,
            style: words.style,
            seed: this.seed + this.made,
            duration,
          }),
        );
    const [audioUrl, imageUrl, videoUrl, kept] = await Promise.all([
      this.job.saveFile(audio, options.format),
      cover ? this.job.saveFile(cover, 'png') : Promise.resolve(options.coverUrl ?? ''),
      options.video && cover
        ? this.pool.run('musicVideo', cover, files.mp3 ?? files.audio, this.job.deadline).then((video) => {
            progress(0.8, 'upload');
            return this.job.saveFile(bufferOf(video), 'mp4');
          })
        : Promise.resolve(''),
      files.stems ? this.keep(files.stems) : Promise.resolve(undefined),
    ]);
    const item: MusicItem = {
      id,
      model: this.model,
      ...wordsOf(words),
      duration,
      audio_url: audioUrl,
      image_url: imageUrl,
      video_url: videoUrl,
      created_at: new Date().toISOString(),
    };
    const sound: Sound = {
      origin: made.origin,
      stems: kept ?? Object.fromEntries(names.map((name) => [name, audioUrl])),
      bpm: made.analysis.bpm,
      firstBeat: made.analysis.firstBeat,
      root: made.analysis.root,
      mode: made.analysis.mode,
      ...(made.plan ? { plan: made.plan } : {}),
      ...(made.voice ? { voice: made.voice } : {}),
      ...(made.level ? { level: made.level } : {}),
    };
    await this.library.saveSong(this.job.tokenId, this.job.taskId, {
      id,
      item,
      sound,
      parentId: options.parentId ?? null,
      continueAt: options.continueAt ?? null,
    });
    progress(1);
    return item;
  }

  /** The stems, lossless, in the blob store: what later edits of this audio start from. */
  private async keep(stems: Record<string, Uint8Array>): Promise<Record<string, string>> {
    const entries = Object.entries(stems);
    const urls = await Promise.all(entries.map(([, flac]) => this.job.saveFile(bufferOf(flac), 'flac')));
    return Object.fromEntries(entries.map(([name], n) => [name, urls[n]!]));
  }
}

/** A file a worker thread made, as a Buffer over the same bytes. */
function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function wordsOf(words: Words) {
  return { title: words.title, style: words.style, lyric: words.lyric, prompt: words.prompt };
}
