/**
 * Orchestral music: classical pieces, film scores and the waltz.
 */
import { part, type Genre } from './genre.js';

export const classical: Genre = {
  name: 'classical',
  words: [
    'classical',
    'orchestral',
    'orchestra',
    'symphonic',
    'baroque',
    'chamber',
    'string quartet',
    'romantic era',
  ],
  tempo: [66, 108],
  swing: 0,
  modes: ['major', 'minor'],
  harmony: 'classical',
  drums: null,
  core: [
    part('strings', 'ensemble', 'whole'),
    part('piano', 'grand', 'arpeggio'),
    part('bass', 'upright', 'root'),
  ],
  extra: [part('flute', 'concert', 'counter'), part('brass', 'section', 'whole')],
  brightness: 0.5,
};

export const cinematic: Genre = {
  name: 'cinematic',
  words: ['cinematic', 'soundtrack', 'film score', 'score', 'trailer', 'movie'],
  tempo: [70, 100],
  swing: 0,
  modes: ['minor', 'major'],
  harmony: 'classical',
  drums: { pattern: 'ballad', kit: 'acoustic' },
  core: [
    part('strings', 'ensemble', 'whole'),
    part('brass', 'section', 'whole'),
    part('piano', 'grand', 'arpeggio'),
  ],
  extra: [part('pad', 'dark', 'whole'), part('bells', 'glass', 'arp')],
  brightness: 0.5,
};

export const waltz: Genre = {
  name: 'waltz',
  words: ['waltz', '3/4', '6/8'],
  tempo: [84, 150],
  swing: 0,
  modes: ['major', 'minor'],
  harmony: 'classical',
  drums: { pattern: 'waltz', kit: 'brush' },
  core: [
    part('piano', 'grand', 'pulse'),
    part('strings', 'ensemble', 'whole'),
    part('bass', 'upright', 'root'),
  ],
  extra: [part('flute', 'concert', 'counter')],
  brightness: 0.5,
};
