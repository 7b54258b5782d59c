/**
 * A third, independent maker of synthetic PRC resident identity cards (second generation,
 * portrait side), for judging the identity engine on cards it was never tuned on: its own
 * holders, layouts, type, card stock, drawn photographs, lighting and capture. See README.md.
 */
export { makeFieldCard, flatFieldCard } from './maker.js';
export type { FieldCard, FieldCardOptions, FieldTruth } from './maker.js';
export { fictionalHolder, type Holder } from './people.js';
export { NATIONS, type Nation } from './nations.js';
export { checkCharacter, forge, gb11643Fault, identityNumber, isRealDate, type Forgery } from './gb11643.js';
export { addressLines, FLAT_HEIGHT, FLAT_WIDTH, type Layout } from './card.js';
export type { CaptureKind } from './capture.js';
