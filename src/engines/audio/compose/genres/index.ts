/**
 * The genres a style prompt can name, grouped by kind of music, each with its tempo range,
 * swing, modes, harmony, groove and band: the defaults every other style word adjusts.
 */
import type { Genre } from './genre.js';
import { ballad, metal, pop, punk, rock } from './pop-rock.js';
import { blues, country, folk, jazz } from './roots.js';
import { ambient, dnb, edm, hiphop, house, lofi, synthwave, techno, trance, trap } from './beats.js';
import { disco, funk, latin, reggae, reggaeton, rnb } from './groove.js';
import { cinematic, classical, waltz } from './orchestral.js';

export type { Genre } from './genre.js';

/**
 * In this order: a seeded choice among genres, and a tie between style words of one length, go
 * by position, so the same seed keeps giving the same song.
 */
export const GENRES: Genre[] = [
  pop,
  ballad,
  rock,
  punk,
  metal,
  jazz,
  blues,
  folk,
  country,
  hiphop,
  trap,
  edm,
  house,
  techno,
  trance,
  dnb,
  synthwave,
  ambient,
  lofi,
  reggae,
  reggaeton,
  funk,
  disco,
  classical,
  cinematic,
  rnb,
  latin,
  waltz,
];
