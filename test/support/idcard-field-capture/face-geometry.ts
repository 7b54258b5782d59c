/**
 * The head a photo is drawn on, as a vertical cylinder: where a point across the face lands as
 * the head turns and nods, how foreshortened it is there, and the face's outline.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { FaceTraits, Rgb, Shot } from './face-traits.js';

export type Ctx = SKRSContext2D;

export const rgba = ([r, g, b]: Rgb, a = 1) =>
  `rgba(${Math.round(r)},${Math.round(g)},${Math.round(b)},${a})`;
export const scaled = ([r, g, b]: Rgb, k: number): Rgb => [
  Math.min(255, r * k),
  Math.min(255, g * k),
  Math.min(255, b * k),
];

/** Where a point across the face (-1 left edge … 1 right edge) lands, and how foreshortened it is there. */
export interface Head {
  cx: number;
  cy: number;
  fw: number;
  fh: number;
  yaw: number;
  x(across: number, depth?: number): number;
  y(down: number): number;
  squeeze(across: number): number;
}

export function headOf(traits: FaceTraits, shot: Shot, width: number, height: number): Head {
  const unit = (width / 300) * shot.scale;
  const fw = 70 * traits.width * unit;
  const fh = 92 * traits.length * unit;
  const cx = width / 2 + shot.shiftX * (width / 300);
  const cy = height * 0.43 + shot.shiftY * (width / 300);
  const angle = (across: number) => Math.asin(Math.max(-1, Math.min(1, across * 0.97))) + shot.yaw;
  return {
    cx,
    cy,
    fw,
    fh,
    yaw: shot.yaw,
    x: (across, depth = 0) => cx + fw * Math.sin(angle(across)) + depth * fw * Math.sin(shot.yaw),
    y: (down) => cy + fh * down + shot.pitch * fh * 0.4 * (1 - Math.abs(down)),
    squeeze: (across) => Math.max(0.15, Math.cos(angle(across))),
  };
}

export function outlinePath(ctx: Ctx, head: Head, traits: FaceTraits): void {
  const { cx, cy, fw, fh } = head;
  const turn = fw * Math.sin(head.yaw) * 0.25;
  const jaw = traits.jaw * fw;
  const chin = traits.chin * fw;
  ctx.beginPath();
  ctx.moveTo(cx + turn, cy - fh);
  ctx.bezierCurveTo(cx + fw * 0.75, cy - fh, cx + fw, cy - fh * 0.55, cx + fw, cy - fh * 0.1);
  ctx.bezierCurveTo(cx + fw, cy + fh * 0.3, cx + jaw * 1.05, cy + fh * 0.5, cx + jaw, cy + fh * 0.62);
  ctx.bezierCurveTo(cx + jaw * 0.8, cy + fh * 0.85, cx + chin + turn, cy + fh, cx + turn * 2, cy + fh);
  ctx.bezierCurveTo(cx - chin + turn, cy + fh, cx - jaw * 0.8, cy + fh * 0.85, cx - jaw, cy + fh * 0.62);
  ctx.bezierCurveTo(cx - jaw * 1.05, cy + fh * 0.5, cx - fw, cy + fh * 0.3, cx - fw, cy - fh * 0.1);
  ctx.bezierCurveTo(cx - fw, cy - fh * 0.55, cx - fw * 0.75, cy - fh, cx + turn, cy - fh);
  ctx.closePath();
}
