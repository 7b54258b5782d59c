/**
 * Where the holder's photo is, from the face the detector found on the card (face/faces.ts):
 * wherever a printer put the photo and whatever its size, the ID-photo standard frames it around
 * the face, so the face's middle and width say where its edges should be sought.
 */
import { PORTRAIT_BOX, type Box } from '../../layout.js';

/** The face's middle lies this far below the photo's top, in parts of its height (as framed by the standard). */
export const FACE_MIDDLE = 0.535;
/** A standard photo is this many times as wide as the detector's box around its face. */
const PHOTO_PER_FACE = 1.62;

/** The narrowest face an ID photo on a card shows: that of a photo half the standard size. */
export const NARROWEST_FACE = PORTRAIT_BOX.width / PHOTO_PER_FACE / 2;

export interface FacePlace {
  /** The photo's box as framed around the face. */
  box: Box;
  /** The face's middle. */
  x: number;
  y: number;
}

/** The photo framed around a face the detector found on a rectified card. */
export function facePlace(face: Box): FacePlace {
  const x = face.x + face.width / 2;
  const y = face.y + face.height / 2;
  const width = Math.round(PHOTO_PER_FACE * face.width);
  const height = Math.round((width * PORTRAIT_BOX.height) / PORTRAIT_BOX.width);
  return {
    box: { x: Math.round(x - width / 2), y: Math.round(y - FACE_MIDDLE * height), width, height },
    x,
    y,
  };
}
