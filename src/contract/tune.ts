/** `/tune/audios` (music generation and manipulation) and `/tune/vox` (vocal extraction). */
import { Type, Closed, StringEnum, InputUrl, CallbackUrl, AsyncFlag, PatternString } from './schema.js';
import { allowedOnlyWhen, filled, ordered } from './rules.js';
import { Envelope, MediaItem, MEDIA_SNAPSHOT } from './responses.js';
import { TUNE_ACTIONS, tuneActionRules } from './tune-actions.js';
import type { Operation, Rule, TaskSnapshot } from './types.js';

export const TUNE_MODELS = [
  'tune-v5',
  'tune-v4-5-plus',
  'tune-v4-5',
  'tune-v4',
  'tune-v3-5',
  'tune-v3-0',
] as const;
type TuneModel = (typeof TUNE_MODELS)[number];

/** Lyrics limits of the origin, in characters: the v4.5 generation doubled what v4 took. */
const LYRIC_MAX: Record<string, number | undefined> & Record<TuneModel, number> = {
  'tune-v3-0': 3000,
  'tune-v3-5': 3000,
  'tune-v4': 3000,
  'tune-v4-5': 5000,
  'tune-v4-5-plus': 5000,
  'tune-v5': 5000,
};
const LYRIC_PROMPT_MAX = 1000;

/** An id of an audio or persona; the cap only keeps garbage out, ids are far shorter. */
function AudioId(description: string) {
  // The pattern alone rules out the empty string, so an empty id gets one message, not two.
  return PatternString('\\S', 'must not be empty or blank', { maxLength: 256, description });
}

const Seconds = (description: string) => Type.Number({ minimum: 0, description: `${description}, seconds` });
const Unit = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const LyricPrompt = Type.Unsafe<{ prompt: string } | string>({
  description:
    'Prompt for auto-generated lyrics, as {"prompt": …} or as the prompt string itself; only when custom is true and lyric is empty.',
  anyOf: [
    Closed({ prompt: Type.String({ minLength: 1, maxLength: LYRIC_PROMPT_MAX }) }),
    Type.String({ minLength: 1, maxLength: LYRIC_PROMPT_MAX }),
  ],
  'x-rule': `must be a string of 1 to ${LYRIC_PROMPT_MAX} characters, or an object {"prompt": …} holding one`,
});

export const TuneAudiosRequest = Closed({
  action: Type.Optional(StringEnum(TUNE_ACTIONS, { default: 'generate', description: 'What to do' })),
  model: Type.Optional(StringEnum(TUNE_MODELS, { default: 'tune-v4', description: 'Model version' })),
  custom: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'true: generate from lyric (custom mode); false: from prompt',
    }),
  ),
  prompt: Type.Optional(Type.String({ maxLength: 200, description: 'Description of the song' })),
  lyric: Type.Optional(
    Type.String({
      description:
        'Lyrics with section markers such as [Verse]; at most 3000 characters up to tune-v4, 5000 from tune-v4-5',
    }),
  ),
  lyric_prompt: Type.Optional(LyricPrompt),
  style: Type.Optional(Type.String({ maxLength: 1000, description: 'Style of the audio' })),
  style_negative: Type.Optional(Type.String({ maxLength: 1000, description: 'Style to avoid' })),
  title: Type.Optional(Type.String({ maxLength: 80, description: 'Title' })),
  instrumental: Type.Optional(
    Type.Boolean({ default: false, description: 'No vocals; lyric is then ignored' }),
  ),
  vocal_gender: Type.Optional(StringEnum(['m', 'f'] as const, { description: 'Voice of the singer' })),
  variation_category: Type.Optional(
    StringEnum(['high', 'normal', 'subtle'] as const, { description: 'How far to vary; tune-v5 only' }),
  ),
  audio_id: Type.Optional(AudioId('Existing audio to work on')),
  audio_url: Type.Optional(InputUrl('Music to upload, with upload_extend and upload_cover')),
  mashup_audio_ids: Type.Optional(
    Type.Array(AudioId('Audio to mash up'), {
      minItems: 2,
      maxItems: 2,
      uniqueItems: true,
      description: 'The two distinct audios to mash up',
    }),
  ),
  persona_id: Type.Optional(AudioId('Persona (singer style), created with POST /tune/personas')),
  continue_at: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      description:
        'Seconds at which to continue the audio; required with extend, optional with upload_extend',
    }),
  ),
  overpainting_start: Type.Optional(Seconds('Start of the vocal-adding window (default 0)')),
  overpainting_end: Type.Optional(Seconds('End of the vocal-adding window, before the song ends')),
  underpainting_start: Type.Optional(Seconds('Start of the accompaniment-adding window (default 0)')),
  underpainting_end: Type.Optional(Seconds('End of the accompaniment-adding window, before the song ends')),
  samples_start: Type.Optional(Seconds('Start of the sample-adding window (default 0)')),
  samples_end: Type.Optional(Seconds('End of the sample-adding window, before the song ends')),
  replace_section_start: Type.Optional(Seconds('Start of the fragment to replace')),
  replace_section_end: Type.Optional(Seconds('End of the fragment to replace')),
  weirdness: Type.Optional(Unit('How unconventional, 0 to 1; custom mode only')),
  style_influence: Type.Optional(Unit('How strongly style steers, 0 to 1; custom mode only')),
  audio_weight: Type.Optional(Unit('Weight of the source audio, 0 to 1; cover and upload_cover only')),
  callback_url: Type.Optional(CallbackUrl()),
  async: Type.Optional(AsyncFlag()),
});

/** Characters as the schema counts them (code points), so both limits agree on emoji. */
const characters = (text: string) => [...text].length;

const lyricFitsModel: Rule = (body) => {
  if (typeof body.lyric !== 'string') return [];
  // An unknown model is the schema's to report; the largest limit keeps this rule quiet then.
  const model = String(body.model);
  const max = LYRIC_MAX[model] ?? 5000;
  return characters(body.lyric) > max
    ? [{ field: 'lyric', rule: `must be at most ${max} characters with model ${model}` }]
    : [];
};

/** Engines see one form: the string form becomes `{prompt}`. */
const lyricPromptAsObject: Rule = (body) => {
  if (typeof body.lyric_prompt === 'string') body.lyric_prompt = { prompt: body.lyric_prompt };
  return [];
};

const isCustom = (body: Record<string, unknown>) => body.custom === true;

const audioRules: Rule[] = [
  lyricFitsModel,
  allowedOnlyWhen(
    'lyric_prompt',
    (b) => isCustom(b) && !filled(b, 'lyric'),
    'custom is true and lyric is empty',
  ),
  lyricPromptAsObject,
  allowedOnlyWhen('weirdness', isCustom, 'custom is true'),
  allowedOnlyWhen('style_influence', isCustom, 'custom is true'),
  allowedOnlyWhen('variation_category', (b) => b.model === 'tune-v5', 'model is tune-v5'),
  ...tuneActionRules,
];

export const tuneAudios: Operation = {
  path: '/tune/audios',
  family: 'tune',
  kind: 'task',
  summary: 'Music generation and audio manipulation',
  accept: ['application/json', 'application/x-ndjson'],
  priceKey: 'tune.audios',
  request: TuneAudiosRequest,
  rules: audioRules,
  response: Envelope(Type.Array(MediaItem)),
  snapshot: MEDIA_SNAPSHOT,
};

export const TuneVoxRequest = Closed({
  audio_id: AudioId('Audio to extract vocals from'),
  vocal_start: Type.Optional(Seconds('Start of the vocal in the audio')),
  vocal_end: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      description: 'End of the vocal in the audio, seconds, after vocal_start',
    }),
  ),
  callback_url: Type.Optional(CallbackUrl()),
  async: Type.Optional(AsyncFlag()),
});

/** The "Vocal extraction result" of the spec. Until it is complete only the ids and status exist. */
export const VoxResult = Type.Object({
  id: Type.String(),
  source_clip_id: Type.String(),
  status: StringEnum(['pending', 'processing', 'complete', 'failed'] as const),
  vocal_audio_url: Type.Optional(Type.String()),
  vocal_start_s: Type.Optional(Type.Number()),
  vocal_end_s: Type.Optional(Type.Number()),
  wave_response: Type.Optional(
    Type.Object({
      waveform_aggregates: Type.Array(
        Type.Object({ data: Type.Array(Type.Array(Type.Integer())), mip_map_level: Type.Integer() }),
      ),
    }),
  ),
});

/** The vocal extraction result says its state in `status`, with the spec's words. */
const VOX_SNAPSHOT: TaskSnapshot = {
  field: 'status',
  words: {
    queued: 'pending',
    running: 'processing',
    succeeded: 'complete',
    failed: 'failed',
    expired: 'failed',
  },
  standIn: 'result',
};

export const tuneVox: Operation = {
  path: '/tune/vox',
  family: 'tune',
  kind: 'task',
  summary: 'Vocal extraction from an existing audio',
  accept: ['application/json'],
  priceKey: 'tune.vox',
  request: TuneVoxRequest,
  rules: [ordered('vocal_start', 'vocal_end')],
  response: Envelope(VoxResult),
  snapshot: VOX_SNAPSHOT,
};

/** `POST /tune/personas` (DECISIONS section 9): a singer's voice learnt from an audio, to reuse. */
export const TunePersonaRequest = Closed({
  audio_id: AudioId('Audio whose singer the persona keeps'),
  name: Type.String({ minLength: 1, maxLength: 80, description: 'Name of the persona' }),
  description: Type.Optional(Type.String({ maxLength: 1000, description: 'What the persona is' })),
  vox_audio_id: Type.Optional(
    AudioId('A /tune/vox result of that audio: the voice is learnt from the extracted vocal'),
  ),
  vocal_start: Type.Optional(Seconds('Start of the vocal to learn from')),
  vocal_end: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      description: 'End of the vocal to learn from, seconds, after vocal_start',
    }),
  ),
});

export const Persona = Type.Object({
  persona_id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  audio_id: Type.String(),
  vox_audio_id: Type.Optional(Type.String()),
  voice: Type.Object({
    gender: StringEnum(['f', 'm'] as const),
    register_hz: Type.Number({ description: 'Median pitch of the singer' }),
  }),
  created_at: Type.String(),
});

export const tunePersonas: Operation = {
  path: '/tune/personas',
  family: 'tune',
  kind: 'sync',
  summary: 'Create a persona (a singer voice) from an audio, for artist_consistency',
  accept: ['application/json'],
  priceKey: 'tune.personas',
  request: TunePersonaRequest,
  rules: [ordered('vocal_start', 'vocal_end')],
  response: Type.Object({ success: Type.Boolean(), data: Persona }),
};
