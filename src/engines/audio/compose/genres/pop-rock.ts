/**
 * Pop and rock: songs built on a backbeat, from the ballad to metal.
 */
import { part, type Genre } from './genre.js';

export const pop: Genre = {
  name: 'pop',
  words: ['pop', 'mainstream', 'radio pop', 'dance pop', 'k pop', 'kpop', 'j pop', 'jpop'],
  tempo: [96, 124],
  swing: 0,
  modes: ['major', 'minor'],
  harmony: 'pop',
  drums: { pattern: 'backbeat', kit: 'electronic' },
  core: [part('piano', 'grand', 'pulse'), part('pad', 'warm', 'whole'), part('bass', 'synth', 'eighths')],
  extra: [
    part('guitar', 'acoustic', 'strum'),
    part('strings', 'ensemble', 'whole'),
    part('bells', 'glass', 'arp'),
  ],
  brightness: 0.65,
};

export const ballad: Genre = {
  name: 'ballad',
  words: ['ballad', 'power ballad', 'love song'],
  tempo: [60, 78],
  swing: 0,
  modes: ['major', 'minor'],
  harmony: 'pop',
  drums: { pattern: 'ballad', kit: 'acoustic' },
  core: [
    part('piano', 'grand', 'arpeggio'),
    part('bass', 'electric', 'root'),
    part('strings', 'ensemble', 'whole'),
  ],
  extra: [part('pad', 'warm', 'whole'), part('guitar', 'acoustic', 'picking')],
  brightness: 0.45,
};

export const rock: Genre = {
  name: 'rock',
  words: [
    'rock',
    'indie',
    'indie rock',
    'alternative',
    'alt rock',
    'grunge',
    'hard rock',
    'garage',
    'rock and roll',
  ],
  tempo: [108, 148],
  swing: 0,
  modes: ['major', 'mixolydian', 'minor'],
  harmony: 'modal',
  drums: { pattern: 'rock', kit: 'acoustic' },
  core: [
    part('guitar', 'electric', 'power'),
    part('bass', 'electric', 'eighths'),
    part('organ', 'drawbar', 'whole'),
  ],
  extra: [part('piano', 'grand', 'pulse'), part('strings', 'ensemble', 'whole')],
  brightness: 0.6,
};

export const punk: Genre = {
  name: 'punk',
  words: ['punk', 'pop punk', 'emo'],
  tempo: [160, 190],
  swing: 0,
  modes: ['major', 'minor'],
  harmony: 'pop',
  drums: { pattern: 'rock', kit: 'acoustic' },
  core: [part('guitar', 'electric', 'power'), part('bass', 'electric', 'eighths')],
  extra: [part('organ', 'drawbar', 'whole')],
  brightness: 0.7,
};

export const metal: Genre = {
  name: 'metal',
  words: ['metal', 'heavy metal', 'thrash', 'metalcore', 'doom', 'heavy'],
  tempo: [140, 185],
  swing: 0,
  modes: ['minor'],
  harmony: 'modal',
  drums: { pattern: 'metal', kit: 'acoustic' },
  core: [part('guitar', 'electric', 'power'), part('bass', 'electric', 'eighths')],
  extra: [part('strings', 'ensemble', 'whole'), part('organ', 'drawbar', 'whole')],
  brightness: 0.55,
};
