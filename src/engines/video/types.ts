/**
 * What a caller asks of the video engine and what it gets back. Camera terms follow film
 * practice: a truck or pedestal moves the camera (near things slide more than far ones), a pan or
 * tilt turns it (everything slides alike), a push moves it forward, a zoom changes the lens.
 */
import type { Canvas } from '../canvas.js';

/**
 * The camera at one frame, relative to the first: offset of the view centre as a fraction of the
 * frame (x right, y down), zoom factor (1 = none, above 1 = closer), roll in radians (positive
 * turns the camera clockwise, so the picture turns counter-clockwise on screen).
 */
export type Motion = { x: number; y: number; zoom: number; roll: number };

export type CameraPreset = 'down_back' | 'forward_up' | 'left_turn_forward' | 'right_turn_forward';

/**
 * `simple`: one axis in [-1, 1]; positive is right (horizontal, pan), up (vertical, tilt),
 * clockwise (roll) and in (zoom). `sequence`: director commands, each an equal share of the clip.
 */
export type CameraMove =
  | {
      kind: 'simple';
      config: {
        horizontal?: number;
        vertical?: number;
        pan?: number;
        tilt?: number;
        roll?: number;
        zoom?: number;
      };
    }
  | { kind: 'preset'; name: CameraPreset }
  | { kind: 'fixed' }
  | { kind: 'sequence'; commands: string[] };

export interface ReferenceVideo {
  frames: Canvas[];
  fps: number;
  /** base: the video itself, restyled; feature: only its colours and mean motion. */
  use: 'base' | 'feature';
}

export interface VideoSpec {
  seed: number;
  /**
   * Words choose the place and what the scene holds (the forms of vocabulary.ts and things from
   * the artwork library), the hour, the palette and how fast things move.
   */
  prompt: string;
  /** Hues, forms, things and weather to keep out. */
  negativePrompt?: string;
  /** 0..1 (default 0.5): how far the words rather than the seed set the pace and the palette. */
  cfgScale?: number;
  /** Even numbers. */
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** pro: a slower encoder preset at a lower CRF. */
  quality: 'std' | 'pro';
  /** Default: a gentle drift the seed chooses. */
  camera?: CameraMove;
  /** The first frame, scaled to cover it; the camera then moves over it. */
  startImage?: Canvas;
  /** The last frame, reached by a dissolve over the final part. */
  endImage?: Canvas;
  /** The last frame of an earlier video: this one starts where that one stopped. */
  continueFrom?: Canvas;
  /** Subjects placed in the scene, moving with it. */
  elements?: Canvas[];
  reference?: ReferenceVideo;
  /** A small 'AI' badge in the bottom-right corner. */
  watermark?: boolean;
  /** An audio file (WAV, MP3, …), muxed as AAC for the length of the video. */
  audio?: Buffer;
}

export interface RenderedVideo {
  mp4: Buffer;
  /** PNG of the last frame as decoded from `mp4`. */
  lastFrame: Buffer;
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** Seconds. */
  duration: number;
  /** Nouns of the prompt nothing in the scene stands for (a painted reference video: none read). */
  unknownNouns: string[];
  /** Nouns drawn as a more general word WordNet gives for them ("heron" as "bird"). */
  standIns: { noun: string; as: string }[];
}
