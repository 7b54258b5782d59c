/** The holder's photo on a rectified card: cut around the face the detector finds there. */
import type { Canvas } from '../../canvas.js';
import { cutPortrait } from '../checks/index.js';
import { facePlace, NARROWEST_FACE } from '../checks/portrait/face-place.js';
import { faceOnCard } from './faces.js';

/** The photo, or null where the detector finds no face on the card. */
export async function portraitOn(card: Canvas): Promise<Canvas | null> {
  const face = await faceOnCard(card, NARROWEST_FACE);
  return cutPortrait(card, face && facePlace(face.box));
}
