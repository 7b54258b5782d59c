/**
 * What each `/tune/audios` action needs, and which members belong to one action only. The
 * schema has already filled in `action` (default generate) and `custom` (default false).
 */
import { allowedOnlyWhen, filled, ordered, present, requiredWhen, type Body } from './rules.js';
import type { Rule } from './types.js';

export const TUNE_ACTIONS = [
  'generate',
  'extend',
  'upload_extend',
  'upload_cover',
  'concat',
  'cover',
  'artist_consistency',
  'artist_consistency_vox',
  'stems',
  'all_stems',
  'replace_section',
  'underpainting',
  'overpainting',
  'remaster',
  'mashup',
  'samples',
] as const;

export type TuneAction = (typeof TUNE_ACTIONS)[number];

function is(...actions: TuneAction[]): (body: Body) => boolean {
  return (body) => typeof body.action === 'string' && (actions as string[]).includes(body.action);
}

/** "action is extend", "action is upload_extend or upload_cover". */
function actionIs(...actions: TuneAction[]): string {
  const last = actions[actions.length - 1];
  return actions.length === 1
    ? `action is ${last}`
    : `action is ${actions.slice(0, -1).join(', ')} or ${last}`;
}

/** The message names the action the client chose, not every action that needs the field. */
function needs(field: string, ...actions: TuneAction[]): Rule {
  return (body) => requiredWhen(field, is(...actions), `action is ${String(body.action)}`)(body);
}

function onlyWith(field: string, ...actions: TuneAction[]): Rule {
  return allowedOnlyWhen(field, is(...actions), actionIs(...actions));
}

/**
 * The spec lists audio_id only as required; it is refused where it would be silently ignored,
 * so that a client who meant another action learns it (the upload actions take audio_url).
 */
const AUDIO_ID_IGNORED: TuneAction[] = ['generate', 'upload_extend', 'upload_cover', 'mashup'];
const audioIdIgnored: Rule = (body) =>
  present(body, 'audio_id') && is(...AUDIO_ID_IGNORED)(body)
    ? [
        {
          field: 'audio_id',
          rule: `is not taken when action is ${String(body.action)} (the upload actions take audio_url, mashup takes mashup_audio_ids)`,
        },
      ]
    : [];

const generateNeedsSource: Rule[] = [
  requiredWhen(
    'prompt',
    (b) => is('generate')(b) && b.custom !== true,
    'action is generate and custom is false',
  ),
  (body) =>
    is('generate')(body) &&
    body.custom === true &&
    !filled(body, 'lyric') &&
    !present(body, 'lyric_prompt') &&
    body.instrumental !== true
      ? [
          {
            field: 'lyric',
            rule: 'is required when action is generate and custom is true, unless lyric_prompt is given or instrumental is true',
          },
        ]
      : [],
];

/** Windows on an existing song: start defaults to 0, end is required and after start. */
const WINDOW_ACTIONS = ['overpainting', 'underpainting', 'samples'] as const;

function windowRules(action: (typeof WINDOW_ACTIONS)[number]): Rule[] {
  const start = `${action}_start`;
  const end = `${action}_end`;
  const startDefault: Rule = (body) => {
    if (is(action)(body) && body[start] === undefined) body[start] = 0;
    return [];
  };
  // Whether the end lies within the song is only known to the engine, once it has the song.
  return [
    onlyWith(start, action),
    onlyWith(end, action),
    needs(end, action),
    startDefault,
    (body) =>
      ordered(start, end)(body).map((v) => ({ ...v, rule: `${v.rule} (${start} is 0 when not given)` })),
  ];
}

export const tuneActionRules: readonly Rule[] = [
  ...generateNeedsSource,
  needs(
    'audio_id',
    'extend',
    'concat',
    'cover',
    'stems',
    'all_stems',
    'remaster',
    'replace_section',
    'underpainting',
    'overpainting',
    'samples',
  ),
  audioIdIgnored,
  needs('audio_url', 'upload_extend', 'upload_cover'),
  onlyWith('audio_url', 'upload_extend', 'upload_cover'),
  needs('continue_at', 'extend'),
  onlyWith('continue_at', 'extend', 'upload_extend'),
  needs('persona_id', 'artist_consistency', 'artist_consistency_vox'),
  needs('replace_section_start', 'replace_section'),
  needs('replace_section_end', 'replace_section'),
  onlyWith('replace_section_start', 'replace_section'),
  onlyWith('replace_section_end', 'replace_section'),
  ordered('replace_section_start', 'replace_section_end'),
  ...WINDOW_ACTIONS.flatMap(windowRules),
  needs('mashup_audio_ids', 'mashup'),
  onlyWith('mashup_audio_ids', 'mashup'),
  onlyWith('audio_weight', 'cover', 'upload_cover'),
];
