/**
 * Soul, funk and the Caribbean and Latin rhythms: R&B, funk, disco, reggae, reggaeton and Latin.
 */
import { part, type Genre } from './genre.js';

export const rnb: Genre = {
  name: 'rnb',
  words: ['r&b', 'rnb', 'r and b', 'soul', 'neo soul', 'motown', 'gospel', 'quiet storm'],
  tempo: [66, 96],
  swing: 0.2,
  modes: ['major', 'minor'],
  harmony: 'jazz',
  drums: { pattern: 'boombap', kit: 'electronic' },
  core: [
    part('piano', 'electric', 'syncopated'),
    part('bass', 'electric', 'root'),
    part('pad', 'warm', 'whole'),
  ],
  extra: [
    part('strings', 'ensemble', 'whole'),
    part('organ', 'drawbar', 'whole'),
    part('brass', 'section', 'stabs'),
  ],
  brightness: 0.5,
};

export const funk: Genre = {
  name: 'funk',
  words: ['funk', 'funky', 'groove', 'groovy'],
  tempo: [96, 116],
  swing: 0.12,
  modes: ['dorian', 'mixolydian'],
  harmony: 'modal',
  drums: { pattern: 'funk', kit: 'acoustic' },
  core: [
    part('guitar', 'clean', 'chops'),
    part('bass', 'electric', 'funk'),
    part('brass', 'section', 'stabs'),
  ],
  extra: [part('organ', 'drawbar', 'whole'), part('piano', 'electric', 'syncopated')],
  brightness: 0.65,
};

export const disco: Genre = {
  name: 'disco',
  words: ['disco', 'nu disco', 'boogie', 'studio 54'],
  tempo: [110, 124],
  swing: 0,
  modes: ['minor', 'major'],
  harmony: 'pop',
  drums: { pattern: 'disco', kit: 'acoustic' },
  core: [
    part('strings', 'ensemble', 'whole'),
    part('guitar', 'clean', 'chops'),
    part('bass', 'electric', 'octaves'),
  ],
  extra: [part('brass', 'section', 'stabs'), part('piano', 'grand', 'pulse')],
  brightness: 0.7,
};

export const reggae: Genre = {
  name: 'reggae',
  words: ['reggae', 'ska', 'dub', 'dancehall', 'roots'],
  tempo: [70, 92],
  swing: 0.15,
  modes: ['major', 'minor'],
  harmony: 'pop',
  drums: { pattern: 'onedrop', kit: 'acoustic' },
  core: [
    part('guitar', 'clean', 'offbeat'),
    part('organ', 'drawbar', 'offbeat'),
    part('bass', 'electric', 'reggae'),
  ],
  extra: [part('brass', 'section', 'stabs'), part('piano', 'grand', 'offbeat')],
  brightness: 0.5,
};

export const reggaeton: Genre = {
  name: 'reggaeton',
  words: ['reggaeton', 'dembow', 'urbano', 'latin pop'],
  tempo: [88, 98],
  swing: 0,
  modes: ['minor'],
  harmony: 'pop',
  drums: { pattern: 'dembow', kit: 'electronic' },
  core: [part('bass', '808', 'sub'), part('guitar', 'nylon', 'picking'), part('pad', 'warm', 'whole')],
  extra: [part('lead', 'square', 'arp'), part('piano', 'grand', 'offbeat')],
  brightness: 0.6,
};

export const latin: Genre = {
  name: 'latin',
  words: ['latin', 'bossa nova', 'bossa', 'samba', 'salsa', 'tango', 'flamenco', 'cumbia'],
  tempo: [96, 126],
  swing: 0,
  modes: ['minor', 'major'],
  harmony: 'jazz',
  drums: { pattern: 'bossa', kit: 'brush' },
  core: [
    part('guitar', 'nylon', 'picking'),
    part('piano', 'grand', 'syncopated'),
    part('bass', 'upright', 'rootfifth'),
  ],
  extra: [part('flute', 'concert', 'counter'), part('brass', 'trumpet', 'stabs')],
  brightness: 0.55,
};
