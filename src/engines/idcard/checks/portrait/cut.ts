/**
 * The holder's photo cut from the rectified card: the printed rectangle found by its own edges
 * around the face the detector found (a printer may move or size the photo, or print it on the
 * other side), the standard place first where the face is there. A card whose photo is blanked,
 * covered or replaced by text has no face, and so no portrait.
 */
import { canvasOf, type Canvas } from '../../../canvas.js';
import { PORTRAIT_BOX, type Box } from '../../layout.js';
import { inProportion, photoBounds, type Bounds, type Expected } from './bounds.js';
import { FACE_MIDDLE, type FacePlace } from './face-place.js';
import { findHead } from './head.js';
import { looksLikeHead } from './presence.js';

/**
 * Around the face, the photo's edges are first sought this far from where its framing puts them
 * (the face's place in a photo varies by some 25 pixels), its size allowed to differ this much
 * from the standard's…
 */
const FACE_SEARCH: Omit<Expected, 'box'> = { slack: 50, sizeTolerance: 0.15, bothWays: true };
/** …then again, closer, around the box scaled to the width found. */
const SCALED_SEARCH: Omit<Expected, 'box'> = { slack: 30, sizeTolerance: 0.05, bothWays: true };

/** The sizes, as shares of the standard's, that a photo is sought at when none is found at the standard size. */
const OTHER_SIZES = [0.88, 1.12];
/** The narrowest photo any search finds: the smaller size less the search's tolerance. */
const NARROWEST = Math.min(...OTHER_SIZES) * (1 - FACE_SEARCH.sizeTolerance) * PORTRAIT_BOX.width;

/** The face sits in the middle of an ID photo, to within this share of its width. */
const CENTRED = 0.05;

/**
 * The photo's rectangle around the face: its edges found near the standard framing; a side edge
 * that leaves the face off the middle is texture, and the other side's mirror stands in for it;
 * without both of its top and bottom edges, they are sought again near where the framing puts
 * them at the width found.
 */
export function aroundFace(card: Canvas, face: FacePlace): Box {
  const first = photoBounds(card, { box: face.box, ...FACE_SEARCH });
  const fromHeight = first.heightMeasured && !first.widthMeasured ? byHeight(card, face, first) : null;
  if (fromHeight) return fromHeight;
  const toLeft = face.x - first.x;
  const toRight = first.x + first.width - face.x;
  const half = Math.min(toLeft, toRight);
  const centred = Math.abs(toLeft - toRight) <= 2 * CENTRED * first.width;
  // A height out of proportion with the width the sides give holds a false top or bottom (a line of
  // the stock's pattern): both are sought again where the framing puts them at that width.
  if (first.heightMeasured && centred && inProportion(first)) return first;
  // A side edge so near the face that its mirror leaves a photo narrower than any sought is the
  // hair's or the face's own edge, not the photo's: the framing's width stands.
  const mirrored = Math.round(2 * half);
  const width = centred ? first.width : mirrored >= NARROWEST ? mirrored : face.box.width;
  const height = (face.box.height * width) / face.box.width;
  // A lone top or bottom edge that stood out places the photo at that width better than the
  // face's middle does: the warm patch takes in the neck, more of it in some photos than in others.
  // (Both found but out of proportion, one of them is false, and which is not known.)
  const placed = centred && first.topFound !== first.bottomFound;
  const box = {
    x: centred ? first.x : Math.round(face.x - width / 2),
    y: placed ? first.y : Math.round(face.y - FACE_MIDDLE * height),
    width,
    height: Math.round(height),
  };
  return photoBounds(card, { box, ...SCALED_SEARCH });
}

/**
 * A photo whose top and bottom were found but not both its sides (its backdrop as light as the
 * stock, or its side at the card's edge): as wide as its proportions make it, placed by the side
 * edge found that leaves the face in the middle. Null when none does: then the height is not to
 * be trusted either (a top edge found in the stock's pattern). Placing it around the face where
 * no side edge stood out cut photos too wide on cards the rule was not worked out on, and so did
 * trusting the height where the face's middle lies between the top and bottom as the framing
 * puts it: it cut as many photos too large as it rescued.
 */
function byHeight(card: Canvas, face: FacePlace, found: Bounds): Box | null {
  const width = Math.min(card.width, Math.round((found.height * PORTRAIT_BOX.width) / PORTRAIT_BOX.height));
  const offCentre = (x: number) => Math.abs(x + width / 2 - face.x);
  const x = [found.x, found.x + found.width - width]
    .filter((left) => offCentre(left) <= CENTRED * width)
    .sort((a, b) => offCentre(a) - offCentre(b))[0];
  if (x === undefined) return null;
  return { x: Math.max(0, Math.min(card.width - width, x)), y: found.y, width, height: found.height };
}

/** How far the face's place may be from the standard layout's for the photo to count as in its place. */
const STANDARD_REACH = 20;

const inStandardPlace = (face: FacePlace) =>
  Math.abs(face.box.x - PORTRAIT_BOX.x) <= STANDARD_REACH &&
  Math.abs(face.box.y - PORTRAIT_BOX.y) <= 2 * STANDARD_REACH;

export function cropped(canvas: Canvas, box: Box): Canvas {
  const out = canvasOf(box.width, box.height);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.y + y) * canvas.width + box.x) * 4;
    out.data.set(canvas.data.subarray(from, from + box.width * 4), y * box.width * 4);
  }
  return out;
}

/** The face with its photo's box framed around it at `scale` times the size its face gives. */
function resized(face: FacePlace, scale: number): FacePlace {
  const width = Math.round(face.box.width * scale);
  const height = Math.round(face.box.height * scale);
  const box = {
    x: Math.round(face.x - width / 2),
    y: Math.round(face.y - FACE_MIDDLE * height),
    width,
    height,
  };
  return { ...face, box };
}

/** `box` moved and cut to lie on the card. */
function onCard(card: Canvas, box: Box): Box {
  const x = Math.max(0, Math.min(card.width - 1, Math.round(box.x)));
  const y = Math.max(0, Math.min(card.height - 1, Math.round(box.y)));
  return {
    x,
    y,
    width: Math.max(1, Math.min(card.width - x, Math.round(box.width))),
    height: Math.max(1, Math.min(card.height - y, Math.round(box.height))),
  };
}

/** A head whose crown is fewer working pixels than this below the cut's top was cut into. */
const CROWN_MARGIN = 3;

/**
 * The photo on a rectified card (CARD_WIDTH×CARD_HEIGHT) around the face the detector found on
 * it, or null where it found none. Its edges are sought where the face frames it (first the
 * standard place, where the face is there); a place whose cut holds a head and shoulders below
 * its top edge is taken; where none does (a portrait drawn or lit unlike those the head finder
 * knows), the photo as the search around the face bounds it: the detector has seen a face there.
 */
export function cutPortrait(card: Canvas, face: FacePlace | null): Canvas | null {
  if (face === null) return null;
  const standard = photoBounds(card);
  const places: (() => Box)[] = [
    ...(inStandardPlace(face) && standard.widthMeasured
      ? [() => standard, () => aroundFace(card, face)]
      : [() => aroundFace(card, face), () => standard]),
    // Last, for a photo printed much smaller or larger than the framing's, whose edges lie
    // beyond the search around it: the search around the face at those sizes.
    ...OTHER_SIZES.map((scale) => () => aroundFace(card, resized(face, scale))),
  ];
  let topless: Canvas | null = null;
  for (const placeOf of places) {
    const place = onCard(card, placeOf());
    if (place.width < place.height / 2 || place.height < PORTRAIT_BOX.height / 2) continue;
    const photo = cropped(card, place);
    const head = findHead(photo);
    if (head === null || !looksLikeHead(head)) continue;
    // A head that reaches the cut's top edge was cut into (an ID photo leaves room above the
    // crown): another place is preferred.
    if (head.top >= CROWN_MARGIN) return photo;
    topless ??= photo;
  }
  return topless ?? cropped(card, onCard(card, aroundFace(card, face)));
}
