/**
 * Recognising the values on the rectified card. The Chinese values go to the Chinese model, each
 * line in several views (sizes, and Tesseract's line mode with and without its own line
 * finding) whose readings are combined by consensus, and the characters of names and addresses
 * are then checked against their print (glyph-check.ts); the number and the digits of the date of
 * birth go to the English model restricted to digits. One Tesseract run per model and mode.
 */
import type { Canvas } from '../../canvas.js';
import { FIELDS, type Field } from '../layout.js';
import type { Placement } from './anchor.js';
import { digitLine, type DigitLine } from './birth-groups.js';
import { consensus, type ReadChar, type Reading } from './consensus.js';
import { checkGlyphs } from './glyph-check.js';
import { recognise, type GreyRaster, type OcrSettings, type OcrWord } from './tesseract.js';
import { TEXT_HEIGHT, titleCrops, valueCrops, type ValueCrops } from './value-crops.js';
import { VIEW_MARGIN, viewOf, type View } from './views.js';

interface ChineseView extends View {
  psm: 7 | 13;
}

/**
 * The views each Chinese line is read in. The model misreads a character or two per line, and
 * which ones depends on the size it is given and on whether Tesseract finds the line itself (7)
 * or takes the crop as the line (13): across these views most misreadings are outvoted.
 */
const CHINESE_VIEWS: readonly ChineseView[] = [
  { psm: 7, scale: 0.5 },
  { psm: 7, scale: 0.6 },
  { psm: 7, scale: 0.7 },
  { psm: 7, scale: 0.85 },
  { psm: 13, scale: 0.7 },
  { psm: 13, scale: 0.85 },
  { psm: 13, scale: 1 },
];
/**
 * One view for the title (only whether it is there matters) and for the date of birth, which is
 * read as digits: its Chinese reading only stands in when that fails.
 */
const SINGLE_VIEW: ChineseView = { psm: 7, scale: 0.7 };
const DIGIT_VIEW: View = { scale: 1 };
/**
 * The number is read in four views (sizes, and its print cut to black and white at the middle
 * of its tones), and the views vote per character, weighted by the recogniser's confidence: a
 * digit one view is unsure of is settled by the others, and the number stays what is printed.
 */
const NUMBER_VIEWS: readonly View[] = [
  DIGIT_VIEW,
  { scale: 0.75 },
  { scale: 1, binarised: true },
  { scale: 1.25, binarised: true },
];
/**
 * A view of the number read with a mean confidence below this is left out of the vote, when one
 * above it exists: on a card stock whose pattern the grey views keep, the recogniser answers
 * digits it does not see, at confidence near 0, while the black-and-white views read the print.
 */
const CONFIDENT = 50;
/** The date's digits are read in two sizes, and with the Chinese reading of its line they vote. */
const BIRTH_VIEWS: readonly View[] = [DIGIT_VIEW, { scale: 0.7 }];

export interface ValueReads {
  crops: Record<Field, ValueCrops>;
  /** Per field, per line, the characters read (the consensus of the views for Chinese values). */
  lines: Record<Field, Reading[]>;
  /** Per field, per view, per line: the readings the consensus was drawn from. */
  views: Record<Field, Reading[][]>;
  /**
   * The year, month and day of the date of birth read as digits, once per digit view, when its
   * line split into three groups.
   */
  birthGroups: Reading[][];
  /** The title place, when there was print there. */
  title: Reading;
}

/** The characters of the words, with a space between words (where the date's 年 and 月 were not read, the space is what separates its numbers). */
const readingOf = (words: readonly OcrWord[] = []): Reading =>
  words.flatMap((w, i) => [
    ...(i > 0 ? [{ char: ' ', weight: w.confidence }] : []),
    ...w.chars.map((c): ReadChar => ({ char: c.char, weight: c.confidence })),
  ]);

/** The characters read on a digit line shown at `scale`, sorted into its groups by where each was found. */
function grouped(words: readonly OcrWord[], spans: DigitLine['spans'], scale: number): Reading[] {
  const groups: ReadChar[][] = spans.map(() => []);
  for (const c of words.flatMap((w) => w.chars)) {
    const centre = (c.box.x + c.box.width / 2 - VIEW_MARGIN) / scale;
    const index = spans.findIndex(([left, right]) => centre >= left - 4 && centre <= right + 4);
    if (index >= 0) groups[index]!.push({ char: c.char, weight: c.confidence });
  }
  return groups;
}

/** Images for one Tesseract run, each tagged with what it shows. */
class Batch<Tag> {
  readonly images: GreyRaster[] = [];
  readonly tags: Tag[] = [];
  constructor(readonly settings: OcrSettings) {}
  add(tag: Tag, image: GreyRaster): void {
    this.tags.push(tag);
    this.images.push(image);
  }
}

/** Which line of which value a Chinese image shows. */
type LineTag = `${Field | 'title'} ${number}`;

export async function readValues(
  card: Canvas,
  placement: Placement,
  signal?: AbortSignal,
): Promise<ValueReads> {
  const crops = Object.fromEntries(FIELDS.map((f) => [f, valueCrops(card, f, placement)])) as Record<
    Field,
    ValueCrops
  >;
  const chinese = {
    7: new Batch<LineTag>({ language: 'chi_sim', psm: 7 }),
    13: new Batch<LineTag>({ language: 'chi_sim', psm: 13 }),
  };
  const digits = new Batch<'number' | View>({ language: 'eng', psm: 7, whitelist: '0123456789X' });
  for (const field of FIELDS) {
    for (const [line, crop] of crops[field].lines.entries()) {
      if (field === 'id_number') {
        for (const view of NUMBER_VIEWS) digits.add('number', viewOf(crop.raster, crop.tones, view));
        continue;
      }
      for (const view of field === 'birth' ? [SINGLE_VIEW] : CHINESE_VIEWS)
        chinese[view.psm].add(`${field} ${line}`, viewOf(crop.raster, crop.tones, view));
    }
  }
  for (const crop of titleCrops(card, placement).lines)
    chinese[SINGLE_VIEW.psm].add('title 0', viewOf(crop.raster, crop.tones, SINGLE_VIEW));
  const birth = crops.birth.lines[0];
  const birthDigits = birth && digitLine(birth.raster, birth.tones, TEXT_HEIGHT * placement.scale);
  if (birthDigits)
    for (const view of BIRTH_VIEWS) digits.add(view, viewOf(birthDigits.image, birth.tones, view));

  const batches = [chinese[7], chinese[13], digits] as const;
  const [words7, words13, digitWords] = await Promise.all(
    batches.map((batch) => recognise(batch.images, batch.settings, signal)),
  );

  const views = new Map<LineTag, Reading[]>();
  for (const [batch, words] of [
    [chinese[7], words7!],
    [chinese[13], words13!],
  ] as const)
    batch.tags.forEach((tag, i) => views.set(tag, [...(views.get(tag) ?? []), readingOf(words[i])]));
  const linesOf = (field: Field | 'title', count: number) =>
    Array.from({ length: count }, (_, line) => consensus(views.get(`${field} ${line}`) ?? []));
  const lines = Object.fromEntries(FIELDS.map((f) => [f, linesOf(f, crops[f].lines.length)])) as Record<
    Field,
    Reading[]
  >;
  for (const field of ['name', 'address'] as const)
    lines[field] = lines[field].map((reading, line) => checkGlyphs(reading, crops[field].lines[line]!));
  // A digit is trusted no more than the word it was read in: digits guessed from the stock's
  // pattern come back sure of themselves each, in a word the recogniser gives near 0.
  const numberReadings = digits.tags.flatMap((tag, i) =>
    tag === 'number'
      ? [
          readingOf(
            digitWords![i]?.map((w) => ({
              ...w,
              chars: w.chars.map((c) => ({ ...c, confidence: Math.min(c.confidence, w.confidence) })),
            })),
          ),
        ]
      : [],
  );
  const meanWeight = (r: Reading) => r.reduce((sum, c) => sum + c.weight, 0) / Math.max(1, r.length);
  const confident = numberReadings.filter((r) => r.length > 0 && meanWeight(r) >= CONFIDENT);
  const voters = confident.length > 0 ? confident : numberReadings;
  lines.id_number = voters.length > 0 ? [consensus(voters)] : [];
  const viewsOf = (field: Field): Reading[][] => {
    const perLine = crops[field].lines.map((_, line) => views.get(`${field} ${line}`) ?? []);
    const count = Math.max(0, ...perLine.map((readings) => readings.length));
    return Array.from({ length: count }, (_, view) => perLine.map((readings) => readings[view] ?? []));
  };
  return {
    crops,
    lines,
    views: Object.fromEntries(FIELDS.map((f) => [f, viewsOf(f)])) as Record<Field, Reading[][]>,
    birthGroups: digits.tags.flatMap((tag, i) =>
      tag !== 'number' && birthDigits ? [grouped(digitWords![i] ?? [], birthDigits.spans, tag.scale)] : [],
    ),
    title: linesOf('title', 1)[0] ?? [],
  };
}
