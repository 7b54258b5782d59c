/**
 * Jazz, blues, folk and country: acoustic bands, swing and shuffles, walking and root-fifth basses.
 */
import { part, type Genre } from './genre.js';

export const jazz: Genre = {
  name: 'jazz',
  words: ['jazz', 'bebop', 'swing', 'big band', 'jazzy', 'smooth jazz', 'cool jazz'],
  tempo: [100, 168],
  swing: 0.65,
  modes: ['major', 'dorian'],
  harmony: 'jazz',
  drums: { pattern: 'swing', kit: 'brush' },
  core: [part('piano', 'grand', 'syncopated'), part('bass', 'upright', 'walking')],
  extra: [
    part('brass', 'sax', 'counter'),
    part('guitar', 'clean', 'syncopated'),
    part('flute', 'concert', 'counter'),
  ],
  brightness: 0.5,
};

export const blues: Genre = {
  name: 'blues',
  words: ['blues', 'bluesy', 'delta blues', 'rhythm and blues'],
  tempo: [68, 108],
  swing: 0.6,
  modes: ['mixolydian', 'major'],
  harmony: 'blues',
  drums: { pattern: 'shuffle', kit: 'acoustic' },
  core: [
    part('guitar', 'clean', 'syncopated'),
    part('bass', 'electric', 'walking'),
    part('organ', 'drawbar', 'whole'),
  ],
  extra: [part('piano', 'grand', 'syncopated'), part('brass', 'sax', 'counter')],
  brightness: 0.5,
};

export const folk: Genre = {
  name: 'folk',
  words: ['folk', 'acoustic', 'singer songwriter', 'indie folk', 'celtic', 'campfire'],
  tempo: [84, 118],
  swing: 0,
  modes: ['major', 'minor'],
  harmony: 'pop',
  drums: { pattern: 'train', kit: 'brush' },
  core: [part('guitar', 'acoustic', 'picking'), part('bass', 'upright', 'rootfifth')],
  extra: [
    part('flute', 'concert', 'counter'),
    part('strings', 'solo', 'counter'),
    part('piano', 'grand', 'arpeggio'),
  ],
  brightness: 0.5,
};

export const country: Genre = {
  name: 'country',
  words: ['country', 'americana', 'bluegrass', 'western', 'honky tonk'],
  tempo: [92, 128],
  swing: 0.1,
  modes: ['major'],
  harmony: 'pop',
  drums: { pattern: 'train', kit: 'acoustic' },
  core: [
    part('guitar', 'acoustic', 'strum'),
    part('bass', 'electric', 'rootfifth'),
    part('piano', 'grand', 'pulse'),
  ],
  extra: [part('strings', 'solo', 'counter'), part('organ', 'drawbar', 'whole')],
  brightness: 0.6,
};
