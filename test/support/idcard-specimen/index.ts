/**
 * Synthetic PRC resident identity cards (portrait side) for tests and benchmarks: fictional
 * holders, drawn portraits, the printed card, and specimens degraded the ways real uploads are,
 * each with the truth a reader should find.
 */
export { makeSpecimen, DEGRADATIONS, BLUR_WARNING_SIGMA } from './specimen.js';
export type { Degradation, Specimen, SpecimenOptions, SpecimenTruth, SpecimenWarning } from './specimen.js';
export { fictionalPerson, type Person } from './people.js';
export { drawPortrait } from './portrait.js';
export { renderCard, type CardOptions } from './render.js';
export { CARD_FONTS, type CardFont } from './fonts.js';
export { printOf, type Print } from './print.js';
