/**
 * The front (portrait side) of a PRC resident identity card, drawn on a canonical raster of
 * 1000×631 pixels (85.6 × 54 mm, about 11.7 px/mm). The card generator prints here and the reader
 * rectifies every photo to this raster, then looks for the printed labels near these places:
 * the boxes are where a card usually has them, not where every printer puts them.
 */
export const CARD_WIDTH = 1000;
export const CARD_HEIGHT = 631;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The recognised members of the card, in the order they are printed. */
export const FIELDS = ['name', 'sex', 'nation', 'birth', 'address', 'id_number'] as const;
export type Field = (typeof FIELDS)[number];

export interface FieldPlace {
  /** The printed label before the value. */
  label: string;
  labelBox: Box;
  /** Where the value is printed, relative to the card (not to the label). */
  valueBox: Box;
  /** Lines of text the value may take. */
  lines: number;
}

export const LAYOUT: Record<Field, FieldPlace> = {
  name: {
    label: '姓名',
    labelBox: { x: 60, y: 88, width: 80, height: 40 },
    valueBox: { x: 180, y: 78, width: 420, height: 58 },
    lines: 1,
  },
  sex: {
    label: '性别',
    labelBox: { x: 60, y: 168, width: 80, height: 40 },
    valueBox: { x: 180, y: 158, width: 100, height: 58 },
    lines: 1,
  },
  nation: {
    label: '民族',
    labelBox: { x: 320, y: 168, width: 80, height: 40 },
    valueBox: { x: 430, y: 158, width: 180, height: 58 },
    lines: 1,
  },
  birth: {
    label: '出生',
    labelBox: { x: 60, y: 248, width: 80, height: 40 },
    valueBox: { x: 180, y: 238, width: 430, height: 58 },
    lines: 1,
  },
  address: {
    label: '住址',
    labelBox: { x: 60, y: 328, width: 80, height: 40 },
    valueBox: { x: 180, y: 318, width: 430, height: 170 },
    lines: 3,
  },
  id_number: {
    label: '公民身份号码',
    labelBox: { x: 60, y: 528, width: 230, height: 40 },
    valueBox: { x: 320, y: 513, width: 640, height: 64 },
    lines: 1,
  },
};

/** The printed photo of the holder. */
export const PORTRAIT_BOX: Box = { x: 640, y: 70, width: 310, height: 400 };

/** A temporary card prints this title above the fields, where a resident card has none. */
export const TEMPORARY_TITLE = '临时居民身份证';
export const TEMPORARY_TITLE_BOX: Box = { x: 180, y: 18, width: 440, height: 52 };
