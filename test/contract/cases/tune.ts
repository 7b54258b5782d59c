import type { InvalidCase, ValidCase } from './types.js';

const audios = '/tune/audios';
const vox = '/tune/vox';

const SONG = 'https://example.com/song.mp3';
const custom = (extra: Record<string, unknown>) => ({ custom: true, lyric: '[Verse]\nla la', ...extra });
const on = (action: string, extra: Record<string, unknown> = {}) => ({ action, audio_id: 'a1', ...extra });
const bad = (name: string, body: unknown, field: string): InvalidCase => ({
  path: audios,
  name,
  body,
  field,
});

const memberRules: InvalidCase[] = [
  bad('action not in enum', { action: 'remix', prompt: 'p' }, 'action'),
  bad('model not in enum', { model: 'tune-v6', prompt: 'p' }, 'model'),
  bad('custom not boolean', { custom: 'yes', prompt: 'p' }, 'custom'),
  bad('prompt over 200 characters', { prompt: 'p'.repeat(201) }, 'prompt'),
  bad('lyric over 3000 with tune-v4', custom({ lyric: 'l'.repeat(3001) }), 'lyric'),
  bad('lyric over 3000 with tune-v3-5', custom({ model: 'tune-v3-5', lyric: 'l'.repeat(3001) }), 'lyric'),
  bad('lyric over 3000 with tune-v3-0', custom({ model: 'tune-v3-0', lyric: 'l'.repeat(3001) }), 'lyric'),
  bad('lyric over 5000 with tune-v4-5', custom({ model: 'tune-v4-5', lyric: 'l'.repeat(5001) }), 'lyric'),
  bad('lyric over 5000 with tune-v5', custom({ model: 'tune-v5', lyric: 'l'.repeat(5001) }), 'lyric'),
  bad('title over 80', { prompt: 'p', title: 't'.repeat(81) }, 'title'),
  bad('style over 1000', { prompt: 'p', style: 's'.repeat(1001) }, 'style'),
  bad('style_negative over 1000', { prompt: 'p', style_negative: 's'.repeat(1001) }, 'style_negative'),
  bad('instrumental not boolean', { prompt: 'p', instrumental: 1 }, 'instrumental'),
  bad('vocal_gender not m or f', { prompt: 'p', vocal_gender: 'male' }, 'vocal_gender'),
  bad(
    'variation_category not in enum',
    { model: 'tune-v5', prompt: 'p', variation_category: 'wild' },
    'variation_category',
  ),
  bad(
    'variation_category before tune-v5',
    { model: 'tune-v4-5-plus', prompt: 'p', variation_category: 'high' },
    'variation_category',
  ),
  bad('lyric_prompt outside custom mode', { prompt: 'p', lyric_prompt: 'a love song' }, 'lyric_prompt'),
  bad('lyric_prompt with lyric', custom({ lyric_prompt: { prompt: 'a love song' } }), 'lyric_prompt'),
  bad('lyric_prompt object without prompt', { custom: true, lyric_prompt: {} }, 'lyric_prompt'),
  bad('lyric_prompt a number', { custom: true, lyric_prompt: 7 }, 'lyric_prompt'),
  bad('lyric_prompt string over 1000', { custom: true, lyric_prompt: 'x'.repeat(1001) }, 'lyric_prompt'),
  bad('weirdness over 1', custom({ weirdness: 1.5 }), 'weirdness'),
  bad('weirdness outside custom mode', { prompt: 'p', weirdness: 0.5 }, 'weirdness'),
  bad('style_influence below 0', custom({ style_influence: -0.1 }), 'style_influence'),
  bad('style_influence outside custom mode', { prompt: 'p', style_influence: 0.5 }, 'style_influence'),
  bad('audio_weight over 1', on('cover', { audio_weight: 2 }), 'audio_weight'),
  bad('audio_weight outside cover', on('extend', { continue_at: 10, audio_weight: 0.5 }), 'audio_weight'),
  bad('audio_url not http(s)', { action: 'upload_cover', audio_url: 'ftp://example.com/a.mp3' }, 'audio_url'),
  bad('audio_id blank', on('concat', { audio_id: '  ' }), 'audio_id'),
  bad('callback_url not http(s)', { prompt: 'p', callback_url: 'mailto:me@example.com' }, 'callback_url'),
  bad('async not boolean', { prompt: 'p', async: 'true' }, 'async'),
  bad('unknown member', { prompt: 'p', calback_url: SONG }, 'calback_url'),
];

const actionRules: InvalidCase[] = [
  bad('generate without prompt', { title: 't' }, 'prompt'),
  bad('generate custom without lyric, lyric_prompt or instrumental', { custom: true }, 'lyric'),
  bad('audio_id with generate', { prompt: 'p', audio_id: 'a1' }, 'audio_id'),
  bad('extend without audio_id', { action: 'extend', continue_at: 10 }, 'audio_id'),
  bad('extend without continue_at', on('extend'), 'continue_at'),
  bad('extend at 0 seconds', on('extend', { continue_at: 0 }), 'continue_at'),
  bad('continue_at outside extend', on('concat', { continue_at: 10 }), 'continue_at'),
  bad('upload_extend without audio_url', { action: 'upload_extend' }, 'audio_url'),
  bad('upload_cover without audio_url', { action: 'upload_cover' }, 'audio_url'),
  bad('audio_url outside the upload actions', on('cover', { audio_url: SONG }), 'audio_url'),
  bad(
    'audio_id with upload_extend',
    { action: 'upload_extend', audio_url: SONG, audio_id: 'a1' },
    'audio_id',
  ),
  bad('concat without audio_id', { action: 'concat' }, 'audio_id'),
  bad('cover without audio_id', { action: 'cover' }, 'audio_id'),
  bad('artist_consistency without persona_id', { action: 'artist_consistency', prompt: 'p' }, 'persona_id'),
  bad('artist_consistency_vox without persona_id', { action: 'artist_consistency_vox' }, 'persona_id'),
  bad('stems without audio_id', { action: 'stems' }, 'audio_id'),
  bad('all_stems without audio_id', { action: 'all_stems' }, 'audio_id'),
  bad('remaster without audio_id', { action: 'remaster' }, 'audio_id'),
  bad(
    'replace_section without audio_id',
    { action: 'replace_section', replace_section_start: 1, replace_section_end: 2 },
    'audio_id',
  ),
  bad(
    'replace_section without start',
    on('replace_section', { replace_section_end: 2 }),
    'replace_section_start',
  ),
  bad(
    'replace_section without end',
    on('replace_section', { replace_section_start: 1 }),
    'replace_section_end',
  ),
  bad(
    'replace_section reversed',
    on('replace_section', { replace_section_start: 5, replace_section_end: 5 }),
    'replace_section_end',
  ),
  bad('replace_section window elsewhere', on('cover', { replace_section_start: 1 }), 'replace_section_start'),
  bad('underpainting without audio_id', { action: 'underpainting', underpainting_end: 10 }, 'audio_id'),
  bad('underpainting without end', on('underpainting'), 'underpainting_end'),
  bad(
    'underpainting end at the default start',
    on('underpainting', { underpainting_end: 0 }),
    'underpainting_end',
  ),
  bad('overpainting without audio_id', { action: 'overpainting', overpainting_end: 10 }, 'audio_id'),
  bad(
    'overpainting end before start',
    on('overpainting', { overpainting_start: 20, overpainting_end: 10 }),
    'overpainting_end',
  ),
  bad(
    'overpainting window elsewhere',
    on('samples', { samples_end: 9, overpainting_start: 1 }),
    'overpainting_start',
  ),
  bad('samples without audio_id', { action: 'samples', samples_end: 10 }, 'audio_id'),
  bad('samples without end', on('samples', { samples_start: 2 }), 'samples_end'),
  bad('samples start negative', on('samples', { samples_start: -1, samples_end: 10 }), 'samples_start'),
  bad('samples window elsewhere', on('stems', { samples_end: 10 }), 'samples_end'),
  bad('mashup without ids', { action: 'mashup' }, 'mashup_audio_ids'),
  bad('mashup with one id', { action: 'mashup', mashup_audio_ids: ['a'] }, 'mashup_audio_ids'),
  bad('mashup with three ids', { action: 'mashup', mashup_audio_ids: ['a', 'b', 'c'] }, 'mashup_audio_ids'),
  bad(
    'mashup with the same id twice',
    { action: 'mashup', mashup_audio_ids: ['a', 'a'] },
    'mashup_audio_ids',
  ),
  bad('mashup_audio_ids elsewhere', { prompt: 'p', mashup_audio_ids: ['a', 'b'] }, 'mashup_audio_ids'),
];

const voxRules: InvalidCase[] = [
  { path: vox, name: 'audio_id missing', body: {}, field: 'audio_id' },
  { path: vox, name: 'audio_id empty', body: { audio_id: '' }, field: 'audio_id' },
  { path: vox, name: 'audio_id not a string', body: { audio_id: 5 }, field: 'audio_id' },
  { path: vox, name: 'vocal_start negative', body: { audio_id: 'a', vocal_start: -1 }, field: 'vocal_start' },
  { path: vox, name: 'vocal_end zero', body: { audio_id: 'a', vocal_end: 0 }, field: 'vocal_end' },
  {
    path: vox,
    name: 'vocal_end not after start',
    body: { audio_id: 'a', vocal_start: 9, vocal_end: 9 },
    field: 'vocal_end',
  },
  {
    path: vox,
    name: 'callback_url not http(s)',
    body: { audio_id: 'a', callback_url: 'x' },
    field: 'callback_url',
  },
  { path: vox, name: 'async not boolean', body: { audio_id: 'a', async: 1 }, field: 'async' },
  { path: vox, name: 'unknown member', body: { audio_id: 'a', vocal_begin: 1 }, field: 'vocal_begin' },
];

const personas = '/tune/personas';
const persona = (name: string, body: unknown, field: string): InvalidCase => ({
  path: personas,
  name,
  body,
  field,
});

const personaRules: InvalidCase[] = [
  persona('audio_id missing', { name: 'n' }, 'audio_id'),
  persona('name missing', { audio_id: 'a1' }, 'name'),
  persona('name empty', { audio_id: 'a1', name: '' }, 'name'),
  persona('name over 80', { audio_id: 'a1', name: 'n'.repeat(81) }, 'name'),
  persona(
    'description over 1000',
    { audio_id: 'a1', name: 'n', description: 'd'.repeat(1001) },
    'description',
  ),
  persona('vox_audio_id blank', { audio_id: 'a1', name: 'n', vox_audio_id: ' ' }, 'vox_audio_id'),
  persona(
    'vocal_end not after start',
    { audio_id: 'a1', name: 'n', vocal_start: 5, vocal_end: 4 },
    'vocal_end',
  ),
  persona('unknown member', { audio_id: 'a1', name: 'n', voice: 'deep' }, 'voice'),
];

export const invalid: InvalidCase[] = [...memberRules, ...actionRules, ...voxRules, ...personaRules];

const ok = (name: string, body: Record<string, unknown>): ValidCase => ({ path: audios, name, body });

const minimal: ValidCase[] = [
  ok('generate from a prompt', { prompt: 'a calm piano piece' }),
  ok('generate from lyrics', custom({})),
  ok('generate from a lyric_prompt object', { custom: true, lyric_prompt: { prompt: 'about rain' } }),
  ok('generate from a lyric_prompt string', { custom: true, lyric_prompt: 'about rain' }),
  ok('generate instrumental', { custom: true, instrumental: true, style: 'lo-fi' }),
  ok('extend', on('extend', { continue_at: 213.5 })),
  ok('upload_extend', { action: 'upload_extend', audio_url: SONG }),
  ok('upload_cover', { action: 'upload_cover', audio_url: 'data:audio/mpeg;base64,AAAA' }),
  ok('concat', on('concat')),
  ok('cover', on('cover')),
  ok('artist_consistency', { action: 'artist_consistency', persona_id: 'p1', prompt: 'p' }),
  ok('artist_consistency_vox', { action: 'artist_consistency_vox', persona_id: 'p1' }),
  ok('stems', on('stems')),
  ok('all_stems', on('all_stems')),
  ok('remaster', on('remaster')),
  ok('replace_section', on('replace_section', { replace_section_start: 10, replace_section_end: 20 })),
  ok('underpainting', on('underpainting', { underpainting_end: 30 })),
  ok('overpainting', on('overpainting', { overpainting_end: 30 })),
  ok('samples', on('samples', { samples_end: 30 })),
  ok('mashup', { action: 'mashup', mashup_audio_ids: ['a1', 'a2'] }),
];

const full: ValidCase[] = [
  ok('generate, every custom member', {
    action: 'generate',
    model: 'tune-v5',
    custom: true,
    prompt: 'p'.repeat(200),
    lyric: 'l'.repeat(5000),
    style: 'synthwave',
    style_negative: 'metal',
    title: 't'.repeat(80),
    instrumental: false,
    vocal_gender: 'f',
    variation_category: 'subtle',
    persona_id: 'p1',
    weirdness: 0,
    style_influence: 1,
    callback_url: 'https://example.com/hook',
    async: true,
  }),
  ok('lyric of 3000 with tune-v4', custom({ lyric: 'l'.repeat(3000) })),
  ok('cover with audio_weight', on('cover', { audio_weight: 0.7, custom: true, lyric: 'l', style: 'jazz' })),
  ok('upload_extend at a second', { action: 'upload_extend', audio_url: SONG, continue_at: 12, prompt: 'p' }),
  ok('upload_cover with audio_weight', { action: 'upload_cover', audio_url: SONG, audio_weight: 0 }),
  ok('samples with both ends', on('samples', { samples_start: 5, samples_end: 6 })),
  ok('underpainting with both ends', on('underpainting', { underpainting_start: 0, underpainting_end: 1.5 })),
  { path: vox, name: 'vox minimal', body: { audio_id: 'a1' } },
  {
    path: vox,
    name: 'vox full',
    body: { audio_id: 'a1', vocal_start: 0, vocal_end: 12.5, callback_url: SONG, async: false },
  },
];

const personaCases: ValidCase[] = [
  { path: personas, name: 'persona minimal', body: { audio_id: 'a1', name: 'Nova' } },
  {
    path: personas,
    name: 'persona full',
    body: {
      audio_id: 'a1',
      name: 'Nova',
      description: 'warm alto',
      vox_audio_id: 'v1',
      vocal_start: 1,
      vocal_end: 9,
    },
  },
];

export const valid: ValidCase[] = [...minimal, ...full, ...personaCases];
