/**
 * Hip hop and electronic music: programmed drums and synthesised bands, from boom bap and lo-fi to
 * house, techno and ambient.
 */
import { part, type Genre } from './genre.js';

export const hiphop: Genre = {
  name: 'hiphop',
  words: ['hip hop', 'hiphop', 'rap', 'boom bap', 'old school'],
  tempo: [82, 98],
  swing: 0.3,
  modes: ['minor', 'dorian'],
  harmony: 'pop',
  drums: { pattern: 'boombap', kit: 'acoustic' },
  core: [
    part('piano', 'electric', 'syncopated'),
    part('bass', 'electric', 'root'),
    part('pad', 'warm', 'whole'),
  ],
  extra: [part('strings', 'ensemble', 'whole'), part('bells', 'glass', 'arp')],
  brightness: 0.45,
};

export const trap: Genre = {
  name: 'trap',
  words: ['trap', 'drill', 'phonk'],
  tempo: [130, 150],
  swing: 0,
  modes: ['minor'],
  harmony: 'pop',
  drums: { pattern: 'trap', kit: '808' },
  core: [part('bass', '808', 'sub'), part('pad', 'dark', 'whole'), part('bells', 'glass', 'arp')],
  extra: [part('lead', 'saw', 'arp'), part('piano', 'grand', 'whole')],
  brightness: 0.45,
};

export const lofi: Genre = {
  name: 'lofi',
  words: ['lofi', 'lo fi', 'chillhop', 'study beats', 'jazzhop'],
  tempo: [70, 90],
  swing: 0.3,
  modes: ['major', 'dorian'],
  harmony: 'jazz',
  drums: { pattern: 'boombap', kit: 'lofi' },
  core: [
    part('piano', 'muted', 'syncopated'),
    part('bass', 'electric', 'root'),
    part('pad', 'warm', 'whole'),
  ],
  extra: [part('guitar', 'clean', 'picking'), part('bells', 'glass', 'arp')],
  brightness: 0.3,
};

export const edm: Genre = {
  name: 'edm',
  words: ['edm', 'electronic', 'dance', 'electro', 'club', 'big room', 'future bass', 'electronica'],
  tempo: [124, 130],
  swing: 0,
  modes: ['minor', 'major'],
  harmony: 'pop',
  drums: { pattern: 'four', kit: 'electronic' },
  core: [part('lead', 'saw', 'arp'), part('pad', 'bright', 'whole'), part('bass', 'synth', 'offbeat')],
  extra: [part('piano', 'grand', 'offbeat'), part('bells', 'glass', 'arp')],
  brightness: 0.75,
};

export const house: Genre = {
  name: 'house',
  words: ['house', 'deep house', 'tech house', 'progressive house', 'garage house'],
  tempo: [120, 126],
  swing: 0.1,
  modes: ['minor', 'major'],
  harmony: 'jazz',
  drums: { pattern: 'four', kit: 'electronic' },
  core: [
    part('piano', 'electric', 'offbeat'),
    part('bass', 'synth', 'offbeat'),
    part('pad', 'warm', 'whole'),
  ],
  extra: [part('lead', 'square', 'arp'), part('organ', 'drawbar', 'offbeat')],
  brightness: 0.6,
};

export const techno: Genre = {
  name: 'techno',
  words: ['techno', 'minimal', 'industrial', 'acid'],
  tempo: [126, 136],
  swing: 0,
  modes: ['minor'],
  harmony: 'modal',
  drums: { pattern: 'four', kit: 'electronic' },
  core: [part('bass', 'synth', 'eighths'), part('lead', 'square', 'arp'), part('pad', 'dark', 'whole')],
  extra: [part('bells', 'glass', 'arp')],
  brightness: 0.55,
};

export const trance: Genre = {
  name: 'trance',
  words: ['trance', 'psytrance', 'uplifting trance'],
  tempo: [132, 140],
  swing: 0,
  modes: ['minor'],
  harmony: 'pop',
  drums: { pattern: 'four', kit: 'electronic' },
  core: [part('lead', 'saw', 'arp'), part('pad', 'bright', 'whole'), part('bass', 'synth', 'offbeat')],
  extra: [part('strings', 'ensemble', 'whole'), part('piano', 'grand', 'pulse')],
  brightness: 0.8,
};

export const dnb: Genre = {
  name: 'dnb',
  words: ['drum and bass', 'dnb', 'jungle', 'breakbeat', 'liquid'],
  tempo: [168, 176],
  swing: 0,
  modes: ['minor'],
  harmony: 'jazz',
  drums: { pattern: 'breakbeat', kit: 'electronic' },
  core: [part('bass', 'synth', 'root'), part('pad', 'warm', 'whole'), part('piano', 'electric', 'whole')],
  extra: [part('strings', 'ensemble', 'whole'), part('bells', 'glass', 'arp')],
  brightness: 0.6,
};

export const synthwave: Genre = {
  name: 'synthwave',
  words: ['synthwave', 'retrowave', '80s', 'synthpop', 'synth pop', 'outrun', 'new wave'],
  tempo: [84, 118],
  swing: 0,
  modes: ['minor', 'major'],
  harmony: 'pop',
  drums: { pattern: 'backbeat', kit: 'electronic' },
  core: [part('lead', 'saw', 'arp'), part('pad', 'bright', 'whole'), part('bass', 'synth', 'eighths')],
  extra: [part('bells', 'glass', 'arp'), part('piano', 'electric', 'pulse')],
  brightness: 0.7,
};

export const ambient: Genre = {
  name: 'ambient',
  words: ['ambient', 'drone', 'new age', 'meditation', 'soundscape', 'downtempo'],
  tempo: [60, 80],
  swing: 0,
  modes: ['major', 'minor'],
  harmony: 'pop',
  drums: null,
  core: [part('pad', 'warm', 'whole'), part('bells', 'glass', 'arp'), part('bass', 'synth', 'root')],
  extra: [part('strings', 'ensemble', 'whole'), part('piano', 'grand', 'arpeggio')],
  brightness: 0.4,
};
