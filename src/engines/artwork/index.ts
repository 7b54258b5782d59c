/**
 * The artwork library: drawings from packages found by the nouns of a prompt, and rasterised at
 * the size a picture needs. Shared by the video scenes and QR art.
 */
export { catalogue, type Artwork, type Catalogue } from './catalogue.js';
export { nounsOf, NUMBER_WORDS, singularsOf, standInOf, type Noun } from './nouns.js';
export { inkBounds, rasterOf } from './raster.js';
export { isThing, standInFor, type StandIn } from './stand-in.js';
