import type { InvalidCase, ValidCase } from './types.js';

const path = '/maxi/videos';
const first_image_url = 'https://example.com/first.png';
const t2v = { model: 'maxi-t2v', action: 'generate', prompt: 'a lighthouse at dusk' };
const i2v = { ...t2v, model: 'maxi-i2v', first_image_url };
const director = (prompt: string) => ({ ...i2v, model: 'maxi-i2v-director', prompt });

export const invalid: InvalidCase[] = [
  { path, name: 'model missing', body: { action: 'generate', prompt: 'a' }, field: 'model' },
  { path, name: 'model unknown', body: { ...t2v, model: 'maxi-v2v' }, field: 'model' },
  { path, name: 'action missing', body: { model: 'maxi-t2v', prompt: 'a' }, field: 'action' },
  { path, name: 'action unknown', body: { ...t2v, action: 'extend' }, field: 'action' },
  { path, name: 'prompt missing', body: { model: 'maxi-t2v', action: 'generate' }, field: 'prompt' },
  { path, name: 'prompt empty', body: { ...t2v, prompt: '' }, field: 'prompt' },
  { path, name: 'prompt blank', body: { ...t2v, prompt: ' \n ' }, field: 'prompt' },
  { path, name: 'prompt over 2000', body: { ...t2v, prompt: 'p'.repeat(2001) }, field: 'prompt' },
  { path, name: 'prompt not a string', body: { ...t2v, prompt: ['a'] }, field: 'prompt' },
  {
    path,
    name: 'maxi-i2v without first image',
    body: { ...t2v, model: 'maxi-i2v' },
    field: 'first_image_url',
  },
  {
    path,
    name: 'director without first image',
    body: { ...t2v, model: 'maxi-i2v-director' },
    field: 'first_image_url',
  },
  { path, name: 'maxi-t2v with a first image', body: { ...t2v, first_image_url }, field: 'first_image_url' },
  {
    path,
    name: 'first image not a URL',
    body: { ...i2v, first_image_url: 'first.png' },
    field: 'first_image_url',
  },
  {
    path,
    name: 'callback_url not http',
    body: { ...t2v, callback_url: 'mailto:a@b.c' },
    field: 'callback_url',
  },
  { path, name: 'async not boolean', body: { ...t2v, async: 1 }, field: 'async' },
  { path, name: 'unknown member', body: { ...t2v, duration: 6 }, field: 'duration' },
  { path, name: 'director: unknown command', body: director('[Spin] a lighthouse'), field: 'prompt' },
  {
    path,
    name: 'director: unknown in a combination',
    body: director('[Zoom in,Barrel roll] a'),
    field: 'prompt',
  },
  { path, name: 'director: empty command', body: director('[] a lighthouse'), field: 'prompt' },
];

export const valid: ValidCase[] = [
  { path, name: 'maxi-t2v minimal', body: t2v },
  {
    path,
    name: 'maxi-t2v full',
    body: {
      ...t2v,
      prompt: '[Spin] is only text here',
      callback_url: 'https://example.com/hook',
      async: true,
    },
  },
  { path, name: 'maxi-i2v minimal', body: i2v },
  {
    path,
    name: 'maxi-i2v full',
    body: {
      ...i2v,
      first_image_url: 'data:image/png;base64,AA',
      callback_url: 'http://example.com/h',
      async: false,
    },
  },
  { path, name: 'director minimal', body: director('a lighthouse') },
  {
    path,
    name: 'director full, every command',
    body: {
      ...director(
        '[Truck left,Truck right] [Pan left, Pan right] [Push in,Pull out] [Pedestal up,Pedestal down] ' +
          '[Tilt up,Tilt down] [Zoom in,Zoom out] [Shake] [Tracking shot] [Static shot] a lighthouse',
      ),
      callback_url: 'https://example.com/hook',
      async: true,
    },
  },
  { path, name: 'director: commands in any case and spacing', body: director('[pan LEFT,  zoom   in] a') },
  { path, name: 'prompt of 2000', body: { ...t2v, prompt: 'p'.repeat(2000) } },
];
