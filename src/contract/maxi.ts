/**
 * `/maxi/videos`: video generation from a prompt and, for the image models, a first frame. The
 * director model reads camera commands in square brackets in the prompt (`[Zoom in,Pan right]`).
 */
import { Type, Closed, StringEnum, PatternString, InputUrl, CallbackUrl, AsyncFlag } from './schema.js';
import { present, requiredWhen, violation, type Body } from './rules.js';
import { Envelope, MediaItem, MEDIA_SNAPSHOT } from './responses.js';
import type { Operation, Rule } from './types.js';

export const MAXI_MODELS = ['maxi-i2v', 'maxi-t2v', 'maxi-i2v-director'] as const;
const DIRECTOR = 'maxi-i2v-director';

export const DIRECTOR_COMMANDS = [
  'Truck left',
  'Truck right',
  'Pan left',
  'Pan right',
  'Push in',
  'Pull out',
  'Pedestal up',
  'Pedestal down',
  'Tilt up',
  'Tilt down',
  'Zoom in',
  'Zoom out',
  'Shake',
  'Tracking shot',
  'Static shot',
] as const;

// The spec calls maxi-t2v the default yet makes model required; required wins, so no default.
export const MaxiRequest = Closed({
  model: StringEnum(MAXI_MODELS, {
    description: 'maxi-t2v: from the prompt; maxi-i2v: from first_image_url; director: also camera commands',
  }),
  action: Type.Literal('generate', { description: 'Generates from the prompt' }),
  prompt: PatternString('\\S', 'must not be empty or blank', {
    maxLength: 2000,
    description: 'The prompt; with maxi-i2v-director, camera commands in brackets such as [Pan left]',
  }),
  first_image_url: Type.Optional(InputUrl('First frame; required by maxi-i2v and maxi-i2v-director')),
  callback_url: Type.Optional(CallbackUrl()),
  async: Type.Optional(AsyncFlag()),
});

const needsImage = (body: Body) => body.model === 'maxi-i2v' || body.model === DIRECTOR;

const textOnlyTakesNoImage: Rule = (body) =>
  body.model === 'maxi-t2v' && present(body, 'first_image_url')
    ? violation('first_image_url', 'is not allowed with model maxi-t2v, which generates from the prompt only')
    : [];

const KNOWN = new Set(DIRECTOR_COMMANDS.map((c) => c.toLowerCase()));
const normal = (command: string) => command.trim().replace(/\s+/g, ' ').toLowerCase();

const directorCommandsKnown: Rule = (body) => {
  if (body.model !== DIRECTOR || typeof body.prompt !== 'string') return [];
  const unknown: string[] = [];
  for (const [bracket, inside = ''] of body.prompt.matchAll(/\[([^[\]]*)\]/g)) {
    for (const command of inside.split(',')) {
      if (KNOWN.has(normal(command))) continue;
      unknown.push(
        command.trim() === '' ? `an empty one in ${bracket}` : `"${command.trim()}" in ${bracket}`,
      );
    }
  }
  return unknown.length === 0
    ? []
    : violation(
        'prompt',
        `has unknown camera commands: ${unknown.join(', ')}; each must be one of ${DIRECTOR_COMMANDS.join(', ')}`,
      );
};

export const maxiRules: readonly Rule[] = [
  requiredWhen('first_image_url', needsImage, 'model is maxi-i2v or maxi-i2v-director'),
  textOnlyTakesNoImage,
  directorCommandsKnown,
];

export const maxi: Operation = {
  path: '/maxi/videos',
  family: 'maxi',
  kind: 'task',
  summary: 'Video generation from a prompt and an optional first frame',
  accept: ['application/json', 'application/x-ndjson'],
  priceKey: 'maxi.videos',
  request: MaxiRequest,
  rules: maxiRules,
  response: Envelope(Type.Array(MediaItem)),
  snapshot: MEDIA_SNAPSHOT,
};
