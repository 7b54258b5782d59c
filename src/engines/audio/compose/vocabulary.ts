/**
 * The words a style prompt is read with besides genres: moods, tempo words, instrument names,
 * and the names of the parts, roles and grooves they map to. Kept apart from the reading so the
 * table can grow without touching the rules.
 */

export type InstrumentName =
  'piano' | 'guitar' | 'bass' | 'pad' | 'strings' | 'organ' | 'bells' | 'lead' | 'brass' | 'flute';

/** What a part plays: a comping figure, a sustained bed, a line, or a bass pattern. */
export type Role =
  | 'pulse'
  | 'arpeggio'
  | 'syncopated'
  | 'offbeat'
  | 'whole'
  | 'strum'
  | 'picking'
  | 'power'
  | 'chops'
  | 'arp'
  | 'stabs'
  | 'counter'
  | 'root'
  | 'eighths'
  | 'rootfifth'
  | 'walking'
  | 'funk'
  | 'sub'
  | 'octaves'
  | 'reggae';

export interface PartChoice {
  name: InstrumentName;
  variant: string;
  role: Role;
  /** Named in the style words: it plays throughout, not only in the fuller sections. */
  stated?: boolean;
}

export type DrumPattern =
  | 'backbeat'
  | 'rock'
  | 'four'
  | 'disco'
  | 'trap'
  | 'boombap'
  | 'swing'
  | 'shuffle'
  | 'funk'
  | 'onedrop'
  | 'bossa'
  | 'dembow'
  | 'metal'
  | 'breakbeat'
  | 'waltz'
  | 'ballad'
  | 'train';
export type Kit = 'acoustic' | 'electronic' | '808' | 'lofi' | 'brush';

const part = (name: InstrumentName, variant: string, role: Role): PartChoice => ({ name, variant, role });

export interface Mood {
  words: string[];
  mode?: 'major' | 'minor';
  tempo: number;
  brightness: number;
  energy: number;
  adds?: PartChoice[];
}

export const MOODS: Mood[] = [
  {
    words: [
      'happy',
      'joyful',
      'cheerful',
      'uplifting',
      'bright',
      'sunny',
      'fun',
      'playful',
      'hopeful',
      'triumphant',
    ],
    mode: 'major',
    tempo: 8,
    brightness: 0.2,
    energy: 0.1,
  },
  {
    words: [
      'sad',
      'melancholy',
      'melancholic',
      'sorrowful',
      'heartbroken',
      'heartbreak',
      'lonely',
      'tearful',
      'somber',
    ],
    mode: 'minor',
    tempo: -15,
    brightness: -0.2,
    energy: -0.2,
  },
  {
    words: ['dark', 'ominous', 'sinister', 'haunting', 'eerie', 'gloomy', 'brooding', 'menacing', 'spooky'],
    mode: 'minor',
    tempo: -5,
    brightness: -0.35,
    energy: 0,
  },
  {
    words: [
      'calm',
      'chill',
      'relaxed',
      'relaxing',
      'peaceful',
      'mellow',
      'gentle',
      'soft',
      'soothing',
      'serene',
    ],
    tempo: -12,
    brightness: -0.1,
    energy: -0.3,
  },
  {
    words: [
      'energetic',
      'intense',
      'powerful',
      'driving',
      'hype',
      'aggressive',
      'fierce',
      'party',
      'exciting',
      'angry',
    ],
    tempo: 12,
    brightness: 0.15,
    energy: 0.3,
  },
  {
    words: ['epic', 'anthemic', 'heroic', 'majestic', 'grand', 'huge'],
    tempo: 0,
    brightness: 0.1,
    energy: 0.25,
    adds: [part('strings', 'ensemble', 'whole'), part('brass', 'section', 'whole')],
  },
  {
    words: ['romantic', 'tender', 'sensual', 'sweet', 'warm', 'intimate', 'loving'],
    mode: 'major',
    tempo: -8,
    brightness: -0.05,
    energy: -0.1,
    adds: [part('strings', 'ensemble', 'whole')],
  },
  {
    words: ['dreamy', 'ethereal', 'atmospheric', 'floating', 'spacey', 'hazy', 'airy', 'celestial'],
    tempo: -10,
    brightness: 0.1,
    energy: -0.15,
    adds: [part('pad', 'bright', 'whole'), part('bells', 'glass', 'arp')],
  },
  {
    words: ['nostalgic', 'bittersweet', 'wistful', 'reflective', 'longing'],
    mode: 'minor',
    tempo: -6,
    brightness: -0.1,
    energy: -0.1,
  },
  {
    words: ['mysterious', 'mystic', 'mystical', 'magical', 'enchanted'],
    mode: 'minor',
    tempo: -4,
    brightness: 0,
    energy: -0.05,
    adds: [part('bells', 'glass', 'arp')],
  },
];

export interface TempoWord {
  words: string[];
  tempo: [number, number];
}

export const TEMPOS: TempoWord[] = [
  { words: ['very slow'], tempo: [50, 64] },
  { words: ['slow', 'slowly', 'downbeat'], tempo: [60, 80] },
  { words: ['mid tempo', 'midtempo', 'moderate'], tempo: [94, 110] },
  { words: ['upbeat', 'uptempo', 'up tempo', 'bouncy'], tempo: [116, 132] },
  { words: ['fast', 'quick', 'rapid'], tempo: [140, 170] },
  { words: ['very fast', 'frantic'], tempo: [168, 190] },
];

export interface InstrumentWord {
  words: string[];
  choice: PartChoice;
}

export const INSTRUMENTS: InstrumentWord[] = [
  {
    words: ['electric piano', 'rhodes', 'wurlitzer', 'e piano', 'epiano'],
    choice: part('piano', 'electric', 'syncopated'),
  },
  { words: ['piano', 'keys', 'keyboard', 'grand piano', 'pianos'], choice: part('piano', 'grand', 'pulse') },
  {
    words: ['electric guitar', 'distorted guitar', 'distortion', 'guitar solo', 'power chords'],
    choice: part('guitar', 'electric', 'power'),
  },
  {
    words: ['acoustic guitar', 'strummed guitar', 'ukulele', 'banjo', 'mandolin'],
    choice: part('guitar', 'acoustic', 'strum'),
  },
  { words: ['clean guitar', 'jazz guitar', 'funk guitar'], choice: part('guitar', 'clean', 'chops') },
  {
    words: ['nylon guitar', 'classical guitar', 'spanish guitar', 'harp'],
    choice: part('guitar', 'nylon', 'picking'),
  },
  { words: ['guitar', 'guitars'], choice: part('guitar', 'acoustic', 'strum') },
  { words: ['upright bass', 'double bass', 'contrabass'], choice: part('bass', 'upright', 'walking') },
  { words: ['synth bass', 'sub bass', 'bassline', 'reese'], choice: part('bass', 'synth', 'eighths') },
  { words: ['808', '808s'], choice: part('bass', '808', 'sub') },
  { words: ['bass', 'bass guitar', 'electric bass'], choice: part('bass', 'electric', 'eighths') },
  { words: ['square lead', 'chiptune', '8 bit', '8bit'], choice: part('lead', 'square', 'arp') },
  {
    words: ['synth', 'synths', 'synthesizer', 'synth lead', 'lead', 'arpeggiator'],
    choice: part('lead', 'saw', 'arp'),
  },
  { words: ['pad', 'pads', 'synth pad', 'warm pad'], choice: part('pad', 'warm', 'whole') },
  {
    words: ['violin', 'violins', 'fiddle', 'cello', 'viola', 'solo violin'],
    choice: part('strings', 'solo', 'counter'),
  },
  { words: ['strings', 'string section', 'string ensemble'], choice: part('strings', 'ensemble', 'whole') },
  { words: ['organ', 'hammond', 'church organ', 'b3'], choice: part('organ', 'drawbar', 'whole') },
  {
    words: [
      'bells',
      'bell',
      'glockenspiel',
      'chimes',
      'music box',
      'celesta',
      'vibraphone',
      'marimba',
      'xylophone',
    ],
    choice: part('bells', 'glass', 'arp'),
  },
  {
    words: [
      'flute',
      'flutes',
      'woodwind',
      'woodwinds',
      'clarinet',
      'recorder',
      'pan flute',
      'oboe',
      'whistle',
    ],
    choice: part('flute', 'concert', 'counter'),
  },
  { words: ['sax', 'saxophone', 'tenor sax', 'alto sax'], choice: part('brass', 'sax', 'counter') },
  { words: ['trumpet', 'trumpets', 'cornet'], choice: part('brass', 'trumpet', 'stabs') },
  {
    words: ['brass', 'horns', 'horn', 'trombone', 'tuba', 'french horn', 'horn section'],
    choice: part('brass', 'section', 'stabs'),
  },
];

export const DRUM_WORDS = ['drums', 'drum', 'percussion', 'drum kit', 'beat', 'beats', 'drum machine'];
export const VOCAL_WORDS = [
  'vocals',
  'vocal',
  'voice',
  'singing',
  'singer',
  'lyrics',
  'male vocals',
  'female vocals',
];
export const INSTRUMENTAL_WORDS = ['instrumental', 'no vocals', 'without vocals', 'no vocal', 'no singing'];
