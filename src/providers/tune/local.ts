/**
 * Music on the local audio engine: `/tune/audios` (every action), `/tune/vox` and
 * `/tune/personas`. Each task works through a Studio (its request, the token's library of
 * audios, the engine's worker threads); results are Music items whose files are in the blob
 * store and whose stems the library keeps for later actions.
 */
import type { TuneAction } from '../../contract/tune-actions.js';
import type { AudioPool } from '../../engines/audio/index.js';
import type { MediaSources } from '../../net/media.js';
import type { Call, Capability, Job } from '../index.js';
import { concat, extend, uploadExtend } from './actions/extend.js';
import { cover, uploadCover } from './actions/cover.js';
import { overpainting, remaster, replaceSection, underpainting } from './actions/edit.js';
import { generate } from './actions/generate.js';
import { mashup } from './actions/mashup.js';
import { samples } from './actions/samples.js';
import { allStems, stems } from './actions/stems.js';
import type { MusicItem, MusicLibrary } from './library.js';
import type { Lyricist } from './lyricist.js';
import { PersonaMaker } from './personas.js';
import { Studio } from './studio.js';
import { extractVocals } from './vox.js';

type Action = (studio: Studio, lyricist: Lyricist) => Promise<MusicItem[]>;

const ACTIONS: Record<TuneAction, Action> = {
  generate,
  artist_consistency: generate,
  artist_consistency_vox: generate,
  extend,
  upload_extend: uploadExtend,
  concat,
  cover,
  upload_cover: uploadCover,
  stems,
  all_stems: allStems,
  replace_section: replaceSection,
  underpainting,
  overpainting,
  remaster,
  mashup,
  samples,
};

export class TuneCapability implements Capability {
  private readonly personas: PersonaMaker;

  constructor(
    private readonly library: MusicLibrary,
    private readonly engine: AudioPool,
    private readonly lyricist: Lyricist,
    media: MediaSources,
  ) {
    this.personas = new PersonaMaker(library, engine, media);
  }

  /** `/tune/personas`, the family's one synchronous operation. */
  handle(call: Call): Promise<unknown> {
    return this.personas.create(call);
  }

  run(job: Job): Promise<unknown> {
    const studio = new Studio(job, this.library, this.engine);
    if (job.operation.path === '/tune/vox') return extractVocals(studio);
    const action = ACTIONS[(studio.text('action') || 'generate') as TuneAction];
    return action(studio, this.lyricist);
  }
}
