/**
 * The card's printed labels and their values from the text lines the detector found and the
 * recogniser read, wherever the printer put them: lines at one height form a row; in a row, a
 * value is what follows its label up to the next label (性别 男 民族 汉 is one row); the address
 * goes on in the rows below it that start under its first line, up to the number's row. The
 * number is what follows 公民身份号码, else a row of 15 or more digits.
 */
import { FIELDS, type Box, type Field } from '../../layout.js';
import type { LineChar, ReadLine } from './recognise.js';

export const LABELS: Readonly<Record<Field, string>> = {
  name: '姓名',
  sex: '性别',
  nation: '民族',
  birth: '出生',
  address: '住址',
  id_number: '公民身份号码',
};

interface RowChar extends LineChar {
  line: ReadLine;
}

interface Row {
  chars: RowChar[];
  top: number;
  bottom: number;
}

export interface CardText {
  /** Each value as read (not yet cleaned): the address's lines joined; '' where none was found. */
  values: Record<Field, string>;
  /** Per character of each value (spaces left out), the others the recogniser also saw there. */
  alternatives: Record<Field, readonly (readonly string[])[]>;
  /** Mean recogniser probability of each value's characters, 0–1. */
  probability: Record<Field, number>;
  /** Where each value was found on the card, for the fields that were. */
  boxes: Partial<Record<Field, Box>>;
  /** The fields whose label was read. */
  labels: ReadonlySet<Field>;
  /** The card's rows as read, top to bottom, for text outside the fields (a temporary card's title). */
  rows: readonly string[];
  /** The labels' characters, with their boxes, for anchoring the standard layout. */
  labelChars: readonly { char: string; probability: number; box: Box }[];
}

const middle = (line: ReadLine) => line.box.y + line.box.height / 2;

/** Lines whose middles are within half a line's height of each other, as rows in reading order. */
function rowsOf(lines: readonly ReadLine[]): Row[] {
  const rows: { lines: ReadLine[] }[] = [];
  for (const line of [...lines].sort((a, b) => middle(a) - middle(b))) {
    const row = rows.find((r) =>
      r.lines.some((l) => Math.abs(middle(l) - middle(line)) < Math.min(l.box.height, line.box.height) / 2),
    );
    if (row) row.lines.push(line);
    else rows.push({ lines: [line] });
  }
  return rows.map(({ lines: members }) => ({
    chars: members
      .sort((a, b) => a.box.x - b.box.x)
      .flatMap((line) => line.chars.filter((c) => c.char.trim() !== '').map((c) => ({ ...c, line }))),
    top: Math.min(...members.map((l) => l.box.y)),
    bottom: Math.max(...members.map((l) => l.box.y + l.box.height)),
  }));
}

const textOf = (chars: readonly RowChar[]) =>
  chars.map((c, i) => (i > 0 && c.line !== chars[i - 1]!.line ? ' ' : '') + c.char).join('');

interface Sighting {
  field: Field;
  row: number;
  /** Index of the label's first and one past its last character in the row. */
  start: number;
  end: number;
}

/** Where `label` is printed in the row: its characters in a run, or for the number's long label, four of its six. */
function findLabel(row: Row, label: string): { start: number; end: number } | undefined {
  const chars = row.chars.map((c) => c.char);
  const exact = chars.join('').indexOf(label);
  if (exact >= 0) return { start: exact, end: exact + label.length };
  if (label.length < 6) return undefined;
  for (let start = 0; start < chars.length; start++) {
    let matched = 0;
    let end = start;
    for (let k = start; k < Math.min(chars.length, start + label.length + 1); k++)
      if (label.includes(chars[k]!)) {
        matched += 1;
        end = k + 1;
      }
    if (matched >= 4 && label.includes(chars[start]!)) return { start, end };
  }
  return undefined;
}

const meanProbability = (chars: readonly RowChar[]) =>
  chars.length === 0 ? 0 : chars.reduce((sum, c) => sum + c.probability, 0) / chars.length;

/** The box around the characters (their lines' heights, their own extent across). */
function boxOf(chars: readonly RowChar[]): Box {
  const lines = [...new Set(chars.map((c) => c.line))];
  const half = Math.max(...lines.map((l) => l.box.height)) / 2;
  const x = Math.min(...chars.map((c) => c.x)) - half;
  const right = Math.max(...chars.map((c) => c.x)) + half;
  const y = Math.min(...lines.map((l) => l.box.y));
  const bottom = Math.max(...lines.map((l) => l.box.y + l.box.height));
  return { x, y, width: right - x, height: bottom - y };
}

const DIGITS_OF_A_NUMBER = 15;

export function cardText(lines: readonly ReadLine[]): CardText {
  const rows = rowsOf(lines);
  const sightings: Sighting[] = [];
  for (const field of FIELDS)
    for (const [index, row] of rows.entries()) {
      const found = findLabel(row, LABELS[field]);
      if (found) {
        sightings.push({ field, row: index, ...found });
        break;
      }
    }
  const values = Object.fromEntries(FIELDS.map((f) => [f, [] as RowChar[]])) as Record<Field, RowChar[]>;
  for (const s of sightings) {
    const nextLabel = sightings
      .filter((o) => o.row === s.row && o.start >= s.end)
      .reduce((end, o) => Math.min(end, o.start), rows[s.row]!.chars.length);
    values[s.field] = rows[s.row]!.chars.slice(s.end, nextLabel);
  }

  const numberRow =
    sightings.find((s) => s.field === 'id_number')?.row ??
    rows.findIndex((r) => r.chars.filter((c) => /[0-9X]/.test(c.char)).length >= DIGITS_OF_A_NUMBER);
  if (values.id_number.length === 0 && numberRow >= 0) values.id_number = rows[numberRow]!.chars;

  // The address's further lines: rows below its first, starting under it, each close below the last.
  const address = sightings.find((s) => s.field === 'address');
  const first = values.address[0];
  if (address && first) {
    const height = first.line.box.height;
    let last = rows[address.row]!;
    for (let r = address.row + 1; r < rows.length && r !== numberRow; r++) {
      const row = rows[r]!;
      if (sightings.some((s) => s.row === r) || row.top - last.bottom > height) break;
      const under = row.chars.filter((c) => c.x >= first.x - height);
      if (under.length === 0) continue;
      values.address.push(...under);
      last = row;
    }
  }

  const labelChars = sightings.flatMap((s) =>
    rows[s.row]!.chars.slice(s.start, s.end).map((c) => ({
      char: c.char,
      probability: c.probability,
      box: { ...boxOf([c]), width: c.line.box.height * 0.8, x: c.x - c.line.box.height * 0.4 },
    })),
  );
  return {
    values: Object.fromEntries(
      FIELDS.map((f) => [f, f === 'address' ? values[f].map((c) => c.char).join('') : textOf(values[f])]),
    ) as Record<Field, string>,
    alternatives: Object.fromEntries(FIELDS.map((f) => [f, values[f].map((c) => c.alternatives)])) as Record<
      Field,
      (readonly string[])[]
    >,
    probability: Object.fromEntries(FIELDS.map((f) => [f, meanProbability(values[f])])) as Record<
      Field,
      number
    >,
    boxes: Object.fromEntries(FIELDS.filter((f) => values[f].length > 0).map((f) => [f, boxOf(values[f])])),
    labels: new Set(sightings.map((s) => s.field)),
    rows: rows.map((r) => textOf(r.chars)),
    labelChars,
  };
}
