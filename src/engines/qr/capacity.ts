/**
 * How many bytes a QR code holds (ISO/IEC 18004): content in byte mode in a version-40 symbol,
 * the largest. It imports nothing, so the request contract counts content by the same rule the
 * encoder does, without loading the renderer.
 */

export type Ecl = 'L' | 'M' | 'Q' | 'H';

/** Data codewords of a version-40 symbol. */
const V40_DATA_CODEWORDS: Readonly<Record<Ecl, number>> = { L: 2956, M: 2334, Q: 1666, H: 1276 };
/** A byte segment's header at version 40: 4-bit mode, 16-bit count. */
const BYTE_HEADER_BITS = 20;
/** ECI header: 4-bit mode 0111 and the 8-bit designator 26 (UTF-8). */
const ECI_HEADER_BITS = 12;

/** Whether the text is all ASCII, which every decoder reads the same without an ECI. */
export const isAscii = (text: string): boolean => /^\p{ASCII}*$/u.test(text);

/** The most bytes of `text`'s kind a QR code holds at `ecl`: UTF-8 gives one to its ECI header. */
export function capacityOf(text: string, ecl: Ecl): number {
  const header = BYTE_HEADER_BITS + (isAscii(text) ? 0 : ECI_HEADER_BITS);
  return Math.floor((V40_DATA_CODEWORDS[ecl] * 8 - header) / 8);
}
