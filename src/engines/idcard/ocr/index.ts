/**
 * The reader of the front of a PRC resident identity card (第二代居民身份证, portrait side): from
 * a photo, scan or rendering to cleaned fields, with where each was read and how confidently.
 */
export { readCard, type CardReading, type ReadOptions } from './read-card.js';
export { locateCard } from './locate.js';
