import type { InvalidCase, ValidCase } from './types.js';

const path = '/dance/videos';
const model = 'dance-1-0-pro-250528';
const text = (t: string) => ({ type: 'text', text: t });
const image = (role?: string, url = 'https://example.com/frame.png') => ({
  type: 'image_url',
  image_url: { url },
  ...(role === undefined ? {} : { role }),
});
const prompt = text('a cat dancing');
const body = (extra: Record<string, unknown> = {}) => ({ model, content: [prompt], ...extra });
const withContent = (...content: unknown[]) => ({ model, content });
const flagged = (t: string) => withContent(text(`a cat dancing ${t}`));
const refs = (n: number) => Array.from({ length: n }, () => image('reference_image'));

const shape: InvalidCase[] = [
  { path, name: 'model missing', body: { content: [prompt] }, field: 'model' },
  { path, name: 'model unknown', body: body({ model: 'dance-2' }), field: 'model' },
  { path, name: 'content missing', body: { model }, field: 'content' },
  { path, name: 'content empty', body: withContent(), field: 'content' },
  { path, name: 'content not an array', body: { model, content: 'a cat' }, field: 'content' },
  { path, name: 'content over 5 items', body: withContent(prompt, ...refs(5)), field: 'content' },
  {
    path,
    name: 'item with neither text nor image',
    body: withContent({ type: 'text' }),
    field: 'content[0]',
  },
  {
    path,
    name: 'item with both text and image',
    body: withContent({ ...image(), text: 'a cat' }),
    field: 'content[0]',
  },
  {
    path,
    name: 'type text on an image',
    body: withContent(prompt, { ...image(), type: 'text' }),
    field: 'content[1].type',
  },
  {
    path,
    name: 'type image_url on a text',
    body: withContent({ ...prompt, type: 'image_url' }),
    field: 'content[0].type',
  },
  { path, name: 'type missing', body: withContent({ text: 'a cat' }), field: 'content[0].type' },
  { path, name: 'type unknown', body: withContent({ ...prompt, type: 'video' }), field: 'content[0].type' },
  { path, name: 'text empty', body: withContent(text('')), field: 'content[0].text' },
  { path, name: 'text over 2500', body: withContent(text('t'.repeat(2501))), field: 'content[0].text' },
  {
    path,
    name: 'image_url a plain string',
    body: withContent(prompt, { type: 'image_url', image_url: 'https://example.com/a.png' }),
    field: 'content[1].image_url',
  },
  {
    path,
    name: 'image_url without url',
    body: withContent(prompt, { type: 'image_url', image_url: {} }),
    field: 'content[1].image_url.url',
  },
  {
    path,
    name: 'image url not http',
    body: withContent(prompt, image('first_frame', 'file:///etc/passwd')),
    field: 'content[1].image_url.url',
  },
  { path, name: 'role unknown', body: withContent(prompt, image('middle_frame')), field: 'content[1].role' },
  {
    path,
    name: 'role on a text item',
    body: withContent({ ...prompt, role: 'first_frame' }),
    field: 'content[0].role',
  },
  {
    path,
    name: 'unknown member in an item',
    body: withContent({ ...prompt, lang: 'en' }),
    field: 'content[0].lang',
  },
  { path, name: 'two text items', body: withContent(prompt, text('a dog')), field: 'content[1]' },
];

const images: InvalidCase[] = [
  {
    path,
    name: 'lite t2v with an image',
    body: { model: 'dance-1-0-lite-t2v-250428', content: [prompt, image()] },
    field: 'content[1].image_url',
  },
  {
    path,
    name: 'lite i2v without an image',
    body: { ...body(), model: 'dance-1-0-lite-i2v-250428' },
    field: 'content',
  },
  {
    path,
    name: 'two images, one without role',
    body: withContent(prompt, image('first_frame'), image()),
    field: 'content[2].role',
  },
  {
    path,
    name: 'two first frames',
    body: withContent(prompt, image('first_frame'), image('first_frame')),
    field: 'content[2].role',
  },
  {
    path,
    name: 'two last frames',
    body: withContent(prompt, image('first_frame'), image('last_frame'), image('last_frame')),
    field: 'content[3].role',
  },
  {
    path,
    name: 'last frame without first frame',
    body: withContent(prompt, image('last_frame')),
    field: 'content[1].role',
  },
  {
    path,
    name: 'reference image with a first frame',
    body: withContent(prompt, image('first_frame'), image('reference_image')),
    field: 'content[2].role',
  },
  { path, name: 'five reference images', body: withContent(...refs(5)), field: 'content[4].role' },
  {
    path,
    name: 'only flags and no image',
    body: withContent(text('--rs 720p --dur 5')),
    field: 'content[0].text',
  },
];

const fields: InvalidCase[] = [
  { path, name: 'resolution not in enum', body: body({ resolution: '4k' }), field: 'resolution' },
  { path, name: 'ratio not in enum', body: body({ ratio: '2:1' }), field: 'ratio' },
  { path, name: 'duration below 2', body: body({ duration: 1 }), field: 'duration' },
  { path, name: 'duration over 12', body: body({ duration: 13 }), field: 'duration' },
  { path, name: 'duration fractional', body: body({ duration: 5.5 }), field: 'duration' },
  { path, name: 'frames below 29', body: body({ frames: 25 }), field: 'frames' },
  { path, name: 'frames over 289', body: body({ frames: 293 }), field: 'frames' },
  { path, name: 'frames not 25+4n', body: body({ frames: 30 }), field: 'frames' },
  { path, name: 'duration and frames', body: body({ duration: 5, frames: 121 }), field: 'frames' },
  { path, name: 'seed below -1', body: body({ seed: -2 }), field: 'seed' },
  { path, name: 'seed over 4294967295', body: body({ seed: 4294967296 }), field: 'seed' },
  { path, name: 'seed fractional', body: body({ seed: 1.5 }), field: 'seed' },
  { path, name: 'camerafixed a string', body: body({ camerafixed: 'true' }), field: 'camerafixed' },
  { path, name: 'watermark a number', body: body({ watermark: 1 }), field: 'watermark' },
  { path, name: 'generate_audio a string', body: body({ generate_audio: 'yes' }), field: 'generate_audio' },
  {
    path,
    name: 'return_last_frame a string',
    body: body({ return_last_frame: 'no' }),
    field: 'return_last_frame',
  },
  { path, name: 'service_tier not in enum', body: body({ service_tier: 'fast' }), field: 'service_tier' },
  {
    path,
    name: 'execution_expires_after below 3600',
    body: body({ execution_expires_after: 3599 }),
    field: 'execution_expires_after',
  },
  {
    path,
    name: 'execution_expires_after over 259200',
    body: body({ execution_expires_after: 259201 }),
    field: 'execution_expires_after',
  },
  {
    path,
    name: 'callback_url not a URL',
    body: body({ callback_url: 'example.com' }),
    field: 'callback_url',
  },
  { path, name: 'async a string', body: body({ async: 'true' }), field: 'async' },
  { path, name: 'unknown member', body: body({ fps: 24 }), field: 'fps' },
];

const flags: InvalidCase[] = [
  { path, name: '--rs not a resolution', body: flagged('--rs 4k'), field: 'content[0].text --rs' },
  {
    path,
    name: '--resolution not a resolution',
    body: flagged('--resolution 2k'),
    field: 'content[0].text --resolution',
  },
  { path, name: '--rt not a ratio', body: flagged('--rt 2:1'), field: 'content[0].text --rt' },
  { path, name: '--ratio not a ratio', body: flagged('--ratio wide'), field: 'content[0].text --ratio' },
  { path, name: '--dur over 12', body: flagged('--dur 13'), field: 'content[0].text --dur' },
  { path, name: '--duration below 2', body: flagged('--duration 1'), field: 'content[0].text --duration' },
  { path, name: '--dur not a number', body: flagged('--dur five'), field: 'content[0].text --dur' },
  { path, name: '--fps not 24', body: flagged('--fps 30'), field: 'content[0].text --fps' },
  {
    path,
    name: '--framespersecond not 24',
    body: flagged('--framespersecond 25'),
    field: 'content[0].text --framespersecond',
  },
  { path, name: '--wm not a boolean', body: flagged('--wm yes'), field: 'content[0].text --wm' },
  {
    path,
    name: '--watermark not a boolean',
    body: flagged('--watermark 1'),
    field: 'content[0].text --watermark',
  },
  { path, name: '--seed below -1', body: flagged('--seed -2'), field: 'content[0].text --seed' },
  { path, name: '--seed not a number', body: flagged('--seed abc'), field: 'content[0].text --seed' },
  { path, name: '--cf not a boolean', body: flagged('--cf 1'), field: 'content[0].text --cf' },
  {
    path,
    name: '--camerafixed not a boolean',
    body: flagged('--camerafixed on'),
    field: 'content[0].text --camerafixed',
  },
  { path, name: 'flag at the end without value', body: flagged('--dur'), field: 'content[0].text --dur' },
  { path, name: 'flag followed by a flag', body: flagged('--rs --dur 5'), field: 'content[0].text --rs' },
  {
    path,
    name: 'flag given twice',
    body: flagged('--rs 720p --resolution 1080p'),
    field: 'content[0].text --resolution',
  },
  {
    path,
    name: '--dur with frames in the body',
    body: { ...flagged('--dur 5'), frames: 121 },
    field: 'content[0].text --dur',
  },
];

export const invalid: InvalidCase[] = [...shape, ...images, ...fields, ...flags];

const every = {
  resolution: '1080p',
  ratio: '21:9',
  seed: 4294967295,
  camerafixed: true,
  watermark: false,
  generate_audio: true,
  return_last_frame: true,
  service_tier: 'flex',
  execution_expires_after: 3600,
  callback_url: 'https://example.com/hook',
  async: false,
};

export const valid: ValidCase[] = [
  { path, name: 'pro minimal', body: body() },
  {
    path,
    name: 'pro full, first and last frames',
    body: {
      ...every,
      duration: 12,
      model,
      content: [prompt, image('first_frame'), image('last_frame', 'data:image/png;base64,AA')],
    },
  },
  { path, name: 'pro fast minimal', body: body({ model: 'dance-1-0-pro-fast-251015' }) },
  {
    path,
    name: 'pro fast full, frames instead of duration',
    body: {
      ...every,
      frames: 289,
      model: 'dance-1-0-pro-fast-251015',
      content: [
        text('a cat dancing --rs 480p --rt adaptive --fps 24 --wm true --seed -1 --cf false'),
        image(),
      ],
    },
  },
  { path, name: '1.5 pro minimal', body: body({ model: 'dance-1-5-pro-251215' }) },
  {
    path,
    name: '1.5 pro full, references',
    body: { ...every, duration: 2, model: 'dance-1-5-pro-251215', content: [prompt, ...refs(4)] },
  },
  { path, name: 'lite t2v minimal', body: body({ model: 'dance-1-0-lite-t2v-250428' }) },
  {
    path,
    name: 'lite t2v full, flags',
    body: {
      ...every,
      model: 'dance-1-0-lite-t2v-250428',
      content: [
        text('a cat --resolution 720p --ratio 9:16 --duration 2 --framespersecond 24 --watermark false'),
      ],
    },
  },
  {
    path,
    name: 'lite i2v minimal, a lone image',
    body: { model: 'dance-1-0-lite-i2v-250428', content: [image()] },
  },
  {
    path,
    name: 'lite i2v full, first frame and flags',
    body: {
      ...every,
      model: 'dance-1-0-lite-i2v-250428',
      content: [text('it blinks --seed 42 --camerafixed true'), image('first_frame')],
    },
  },
  { path, name: 'lone reference image', body: withContent(image('reference_image')) },
  {
    path,
    name: 'a body field over its flag',
    body: { ...flagged('--rs 1080p --dur 5'), resolution: '480p', duration: 3 },
  },
  { path, name: 'frames at the low edge', body: body({ frames: 29, seed: -1 }) },
  { path, name: 'unknown -- tokens stay in the prompt', body: flagged('--style noir -- twice') },
];
