/** What the identity operations need of the ID card engine (engines/idcard), off the event loop. */
import type { StopSignal } from '../stop-signal.js';

export type CardField = 'name' | 'sex' | 'nation' | 'birth' | 'address' | 'id_number';

/** The signals behind the `config` warnings, each computed on every card. */
export interface CardSignals {
  /** No colour: a photocopy or a greyscale scan. */
  copy: boolean;
  /** Part of the card lies outside the image or is covered at its border. */
  border: boolean;
  /** A photo of a screen (moiré) or of a glossy print (glare). */
  reshoot: boolean;
  /** Signs of editing: a region whose tone, noise or type differs from the rest of the card. */
  ps: boolean;
  /** A temporary resident card. */
  temporary: boolean;
}

/** The card's text: what the ocr operation needs. */
export interface CardReading {
  /** A card front was located (its printed labels). */
  found: boolean;
  /** Cleaned values, '' where a field could not be read. */
  fields: Record<CardField, string>;
}

export interface CardInspection extends CardReading {
  /** Sharpness 0–100; below 50 the card is blurred. */
  quality: number;
  signals: CardSignals;
  /** The holder's photo cut from the card (PNG), or null when it could not be cut out. */
  portrait: Buffer | null;
  /** The card rectified (PNG), compared whole when the portrait could not be cut out. */
  card: Buffer;
}

export interface CardEngine {
  /** Reads a card image's text (PNG or JPEG bytes); throws UnreadableImage for other bytes. */
  read(image: Buffer, signal: StopSignal): Promise<CardReading>;
  /** Reads a card image and checks it, its portrait cut out; throws UnreadableImage for other bytes. */
  inspect(image: Buffer, signal: StopSignal): Promise<CardInspection>;
  /** Similarity 0–100 of two face images (PNG or JPEG); 70 or more: the same person. */
  similarity(a: Buffer, b: Buffer, signal: StopSignal): Promise<number>;
  close(): Promise<void>;
}
