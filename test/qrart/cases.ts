/**
 * Random but reproducible renderer requests for the QR art sweep: every option drawn from its
 * domain, content in the form each payload type takes (3 to 400 bytes of UTF-8, and one case in
 * DENSE_EVERY long, up to the ecl's capacity, often on a tight layout), and about a quarter with
 * a synthetic content image. Also an oracle for TooDense that does not run the renderer: the
 * symbol size from the encoder (matrix.ts) and the layout rule of layout.ts.
 */
import { QR_MARKER_SHAPES, QR_PIXEL_STYLES, QR_POSITIONS, QR_SUB_MARKERS } from '../../src/contract/qrart.js';
import { QR_CAPACITY } from '../../src/contract/qrart.js';
import {
  CANVAS_SIZES,
  PATTERNS,
  PRESETS,
  type PayloadType,
  type QrArtRequest,
} from '../../src/engines/qr/index.js';
import { MIN_MODULE_PIXELS, MIN_QUIET_MODULES } from '../../src/engines/qr/layout.js';
import { encode } from '../../src/engines/qr/matrix.js';
import { Random } from '../support/random.js';

export interface SweepCase {
  index: number;
  request: QrArtRequest;
  /** What the code must carry: the content with its type's scheme. */
  payload: string;
  /** How the content image was made, when there is one. */
  imageLabel?: string;
}

const TYPES: readonly PayloadType[] = ['link', 'text', 'email', 'phone', 'sms'];
const ECLS = ['L', 'M', 'Q', 'H'] as const;
// The value domains of the contract itself, so that the sweep covers exactly what clients send.
const STYLES = QR_PIXEL_STYLES;
const MARKERS = QR_MARKER_SHAPES;
const SUBS = QR_SUB_MARKERS;
const POSITIONS = QR_POSITIONS;
const ASPECTS = Object.keys(CANVAS_SIZES) as (keyof typeof CANVAS_SIZES)[];
const PADDINGS = [0, 5, 10, 15, 20];
const NOISES = [0, 0.25, 0.5, 0.75, 1];

const WORDS = [
  'switchyard',
  'gateway',
  'lantern',
  'harbour',
  'quiet',
  'module',
  'signal',
  'orchard',
  'copper',
  'meadow',
];
const UNICODE = [
  'café',
  'naïve',
  'Grüße',
  'señal',
  'Привет',
  'мир',
  'Γειά',
  'שלום',
  'مرحبا',
  'こんにちは',
  '漢字',
  '한국어',
  '🚀',
  '🌈✨',
  '👩‍💻',
  'ﬁ',
  '€100',
];
const PROMPT_WORDS = [
  'red',
  'teal',
  'golden',
  'violet',
  'dark',
  'pastel',
  'bright',
  'moody',
  'city',
  'forest',
  'ocean',
  'sunrise',
  'abstract',
  'watercolour',
  'mountains',
];

export const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function sentence(random: Random, bytes: number, unicode: boolean): string {
  let out = '';
  while (utf8Bytes(out) < bytes) {
    const word = unicode && random.next() < 0.45 ? random.pick(UNICODE) : random.pick(WORDS);
    out += (out ? random.pick([' ', ' ', ', ', '. ', '\n']) : '') + word;
  }
  return out;
}

/** A target length: mostly short or medium, one time in five long (150–400 bytes). */
function length(random: Random): number {
  const r = random.next();
  if (r < 0.35) return 3 + random.int(30);
  if (r < 0.8) return 30 + random.int(120);
  return 150 + random.int(251);
}

/** Text cut to at most `bytes` of UTF-8, on a code point. */
function cut(text: string, bytes: number): string {
  const points = Array.from(text);
  while (utf8Bytes(points.join('')) > bytes) points.pop();
  return points.join('');
}

const digits = (random: Random, count: number) =>
  Array.from({ length: count }, () => random.int(10)).join('');

/**
 * Content in the form /qrart/tasks accepts for its type: a link is an http(s) URL without
 * spaces, an email a plain address, phone and sms 3 to 15 digits with an optional +; the engine
 * adds mailto:, tel: and SMSTO: itself.
 */
function contentOf(random: Random, type: PayloadType, bytes: number): { content: string; payload: string } {
  switch (type) {
    case 'link': {
      const host = random.pick(['switchyard.example', 'a.io', 'sub.domain.example.org', 'localhost:8080']);
      const query =
        random.next() < 0.3 ? `?q=${encodeURIComponent(random.pick(UNICODE))}&n=${random.int(99)}` : '';
      let url = `${random.pick(['https://', 'http://', 'HTTPS://'])}${host}/`;
      while (utf8Bytes(url) + query.length < bytes)
        url += `${random.next() < 0.2 ? random.pick(UNICODE).replace(/\s/g, '') : random.pick(WORDS)}/`;
      const content = `${cut(url, Math.max(bytes - query.length, url.indexOf('/', 8) + 1))}${query}`;
      return { content, payload: content };
    }
    case 'text': {
      const content =
        random.next() < 0.15
          ? digits(random, Math.max(1, bytes))
          : cut(sentence(random, bytes, random.next() < 0.6), Math.max(bytes, 1));
      return { content: content || 'x', payload: content || 'x' };
    }
    case 'email': {
      let local = random.pick(WORDS);
      while (utf8Bytes(local) < bytes - 20)
        local += `${random.pick(['.', '_', '-', ''])}${random.next() < 0.15 ? random.pick(['josé', 'müller', 'ünïcode']) : random.pick(WORDS)}`;
      if (random.next() < 0.4) local += `+${random.int(1000)}`;
      const domain = `@${random.pick(['example.com', 'mail.example.org', 'x.io'])}`;
      const content = `${cut(local, Math.max(1, bytes - utf8Bytes(domain)))}${domain}`;
      return { content, payload: `mailto:${content}` };
    }
    case 'phone':
    case 'sms': {
      const count = 3 + random.int(13);
      const content = `${random.next() < 0.6 ? '+' : ''}${digits(random, count)}`;
      return { content, payload: `${type === 'phone' ? 'tel:' : 'SMSTO:'}${content}` };
    }
  }
}

const IMAGE_KINDS = ['gradient', 'circles', 'noise', 'checker', 'dark', 'flat'] as const;
const IMAGE_SIZES: [number, number][] = [
  [1024, 768],
  [640, 640],
  [320, 240],
  [200, 900],
  [1600, 400],
  [96, 128],
  [17, 11],
  [768, 1024],
];

/** A synthetic RGBA image: gradients, circles, noise or checks, some with transparency. */
export function syntheticImage(
  random: Random,
  kind: (typeof IMAGE_KINDS)[number],
  width: number,
  height: number,
  alpha: boolean,
): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(width * height * 4);
  const hue = () => [random.int(256), random.int(256), random.int(256)] as const;
  const [a, b, c] = [hue(), hue(), hue()];
  const circles = Array.from({ length: 3 + random.int(8) }, () => ({
    x: random.next() * width,
    y: random.next() * height,
    r: (0.05 + random.next() * 0.3) * Math.max(width, height),
    colour: hue(),
  }));
  const cell = 4 + random.int(40);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const o = (y * width + x) * 4;
      const t = (x / width + y / height) / 2;
      let rgb: readonly number[];
      switch (kind) {
        case 'gradient':
          rgb =
            t < 0.5
              ? a.map((v, i) => v + ((b[i] ?? 0) - v) * t * 2)
              : b.map((v, i) => v + ((c[i] ?? 0) - v) * (t - 0.5) * 2);
          break;
        case 'circles':
          rgb = circles.find((k) => (x - k.x) ** 2 + (y - k.y) ** 2 < k.r ** 2)?.colour ?? a;
          break;
        case 'noise':
          rgb = [random.int(256), random.int(256), random.int(256)];
          break;
        case 'checker':
          rgb = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 ? a : b;
          break;
        case 'dark':
          rgb = a.map((v) => (v * 0.15 + random.int(20)) | 0);
          break;
        case 'flat':
          rgb = c;
          break;
      }
      data[o] = rgb[0] ?? 0;
      data[o + 1] = rgb[1] ?? 0;
      data[o + 2] = rgb[2] ?? 0;
      // Transparency: a fade from opaque to clear, with a fully clear band.
      data[o + 3] = alpha ? (x > width * 0.8 ? 0 : Math.round(255 * (1 - y / height))) : 255;
    }
  }
  return { width, height, data };
}

const maybe = <T>(random: Random, value: () => T, p = 0.9): T | undefined =>
  random.next() < p ? value() : undefined;

/** One case in this many is dense: long content (500 bytes to the ecl's capacity) on tight layouts. */
export const DENSE_EVERY = 15;

export function generateCases(seed: number, count: number): SweepCase[] {
  const random = new Random(seed);
  return Array.from({ length: count }, (_, index) => {
    const dense = index % DENSE_EVERY === DENSE_EVERY - 1;
    const type: PayloadType = dense
      ? random.pick(['text', 'link', 'email'] as const)
      : (TYPES[index % TYPES.length] ?? 'text');
    const ecl = random.pick(ECLS);
    // Half the dense cases on a tight layout (16:9 or 9:16, toward an edge, padding 15 or 20)
    // with content near the capacity: those are the ones that may not fit.
    const tight = dense && random.next() < 0.5;
    // The contract counts the content's bytes; mailto: comes on top of them.
    const room = QR_CAPACITY[ecl] - 7;
    const from = tight ? Math.round(room * 0.7) : 500;
    const bytes = dense ? from + random.int(room - from) : length(random);
    const { content, payload } = contentOf(random, type, bytes);
    const request: QrArtRequest = {
      content,
      type,
      ecl,
      seed: random.next() < 0.2 ? Number.MAX_SAFE_INTEGER - random.int(1000) : 1 + random.int(2 ** 31),
      aspectRatio: tight ? random.pick(['16:9', '9:16'] as const) : random.pick(ASPECTS),
      pixelStyle: maybe(random, () => random.pick(STYLES)),
      markerShape: maybe(random, () => random.pick(MARKERS)),
      subMarker: maybe(random, () => random.pick(SUBS)),
      rotate: random.pick([0, 90, 180, 270]),
      position: tight ? random.pick(POSITIONS.slice(1)) : maybe(random, () => random.pick(POSITIONS)),
      paddingLevel: tight
        ? random.pick([15, 20])
        : random.next() < 0.7
          ? random.pick(PADDINGS)
          : random.int(21),
      paddingNoise: random.next() < 0.7 ? random.pick(NOISES) : Math.round(random.next() * 100) / 100,
      qrw: random.pick([1.5, 3, Math.round((1.5 + random.next() * 1.5) * 100) / 100]),
      steps: 10 + random.int(11),
      prompt: maybe(
        random,
        () => Array.from({ length: 1 + random.int(5) }, () => random.pick(PROMPT_WORDS)).join(' '),
        0.7,
      ),
      negativePrompt: random.next() < 0.3 ? random.pick(PROMPT_WORDS) : random.pick([null, undefined]),
      preset: maybe(
        random,
        () => (random.next() < 0.85 ? random.pick(Object.keys(PRESETS)) : 'my-own-look'),
        0.75,
      ),
      pattern: maybe(random, () => random.pick(PATTERNS), 0.5),
    };
    let imageLabel: string | undefined;
    if (random.next() < 0.25) {
      const kind = random.pick(IMAGE_KINDS);
      const [width, height] = random.pick(IMAGE_SIZES);
      const alpha = random.next() < 0.3;
      request.image = syntheticImage(random, kind, width, height, alpha);
      imageLabel = `${kind} ${width}×${height}${alpha ? ' transparent' : ''}`;
    }
    return { index, request, payload, imageLabel };
  });
}

/** The options of a case in one line, to replay it. */
export function describeCase({ index, request: r, payload, imageLabel }: SweepCase): string {
  const options = {
    type: r.type,
    bytes: utf8Bytes(payload),
    ecl: r.ecl,
    seed: r.seed,
    aspect_ratio: r.aspectRatio,
    pixel_style: r.pixelStyle,
    marker_shape: r.markerShape,
    sub_marker: r.subMarker,
    rotate: r.rotate,
    position: r.position,
    padding_level: r.paddingLevel,
    padding_noise: r.paddingNoise,
    qrw: r.qrw,
    steps: r.steps,
    prompt: r.prompt,
    negative_prompt: r.negativePrompt,
    preset: r.preset,
    pattern: r.pattern,
    image: imageLabel,
  };
  const shown = Object.entries(options)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : v}`);
  return `#${index} ${shown.join(' ')} content=${JSON.stringify(r.content.length > 60 ? `${r.content.slice(0, 60)}…` : r.content)}`;
}

/**
 * Whether the code fits: modules of at least MIN_MODULE_PIXELS in the share of the short side a
 * position gets (88% centred, 72% toward an edge), with the quiet zone padding_level asks for.
 */
export function fits(c: SweepCase): boolean {
  // Text beyond ASCII carries an ECI header, which can take it to the next version.
  const size = encode(c.payload, c.request.ecl).size;
  const [width, height] = CANVAS_SIZES[c.request.aspectRatio];
  const share = (c.request.position ?? 'center') === 'center' ? 0.88 : 0.72;
  const quiet = Math.max(MIN_QUIET_MODULES, Math.ceil((size * (c.request.paddingLevel ?? 0)) / 100));
  return Math.floor((Math.min(width, height) * share) / (size + 2 * quiet)) >= MIN_MODULE_PIXELS;
}
