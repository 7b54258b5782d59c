/**
 * Scenes of the countryside's still water and what stands by it: a windmill whose sails turn
 * while it stands, a pond lying in grass (not a sea with a beach) with ducks on it, lily pads
 * floating on it with a frog on one (not a notepad), and canoes for canoes and kayaks (not
 * sailboats). Checked on the plan and on painted frames, with the camera held still so that
 * world (0, 0) is the frame's middle.
 */
import { describe, expect, it } from 'vitest';
import { lilyPadsOf } from '../../src/engines/video/lilypads.js';
import { pondHalfAt, pondOf } from '../../src/engines/video/pond.js';
import { sceneFrames } from '../../src/engines/video/render.js';
import { planScene } from '../../src/engines/video/scene.js';

const FRAME = { width: 320, height: 180 };
const plan = (prompt: string, seed = 5) => planScene({ prompt, seed }, FRAME);

function frames(prompt: string, seed: number, at: number[]): Int32Array[] {
  const paint = sceneFrames({
    seed,
    prompt,
    ...FRAME,
    fps: 24,
    frames: Math.max(...at) + 1,
    quality: 'std',
    camera: { kind: 'fixed' },
  });
  return at.map((k) => {
    const out = new Int32Array(FRAME.width * FRAME.height);
    paint(k, out);
    return out;
  });
}

/** The colour at world (x, y), as [r, g, b]. */
function rgbAt(frame: Int32Array, x: number, y: number): [number, number, number] {
  const v = frame[Math.round(y + FRAME.height / 2) * FRAME.width + Math.round(x + FRAME.width / 2)]!;
  return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff];
}

describe('a windmill', () => {
  it('stands on the land, still, its sails turning from frame to frame', () => {
    const prompt = 'a windmill in a field';
    const p = plan(prompt, 4);
    expect(p.forms).toEqual(expect.arrayContaining(['land', 'windmill']));
    expect(p.nouns.drawn).toContain('windmill');
    const mills = p.subjects.filter((s) => s.subject === 'windmill');
    expect(mills).toHaveLength(1);
    const mill = mills[0]!;
    expect(mill.foot).toBeGreaterThan(p.stage.horizon);
    expect(mill.speed).toBe(0);
    const [first, later] = frames(prompt, 4, [0, 12]);
    // Around the hub (subjects.ts: 0.214 frame heights above its foot) the sails sweep.
    const hub = [mill.x, mill.foot - 0.214 * FRAME.height * mill.scale] as const;
    const reach = 0.12 * FRAME.height * mill.scale;
    let swept = 0;
    let foot = 0;
    for (let dy = -reach; dy <= reach; dy += 1)
      for (let dx = -reach; dx <= reach; dx += 1) {
        const [a, b] = [rgbAt(first!, hub[0] + dx, hub[1] + dy), rgbAt(later!, hub[0] + dx, hub[1] + dy)];
        if (a.some((c, i) => Math.abs(c - b[i]!) > 40)) swept += 1;
      }
    for (let dx = -3; dx <= 3; dx += 1) {
      const [a, b] = [rgbAt(first!, mill.x + dx, mill.foot - 4), rgbAt(later!, mill.x + dx, mill.foot - 4)];
      if (a.some((c, i) => c !== b[i])) foot += 1;
    }
    expect(swept).toBeGreaterThan(20);
    expect(foot).toBe(0);
  });

  it('draws as many windmills as said, apart', () => {
    const p = plan('three windmills and tulips');
    const xs = p.subjects.filter((s) => s.subject === 'windmill').map((s) => s.x);
    expect(xs).toHaveLength(3);
    const sorted = [...xs].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i += 1) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThan(20);
  });
});

describe('a pond', () => {
  it('lies in grass, not on a coast: ducks float on it, green land all around', () => {
    const prompt = 'ducks on a pond';
    const p = plan(prompt, 6);
    expect(p.forms).toEqual(expect.arrayContaining(['land', 'pond']));
    expect(p.forms).not.toContain('waves');
    expect(p.forms).not.toContain('beach');
    const pond = pondOf(p.stage);
    const ducks = p.things.filter((t) => t.thing.art === 'duck');
    expect(ducks).toHaveLength(3);
    for (const duck of ducks) {
      const y = duck.foot - 0.12 * duck.height;
      expect(Math.abs(duck.x - pond.x)).toBeLessThan(pondHalfAt(pond, y));
      expect(duck.speed).toBe(0);
    }
    const [frame] = frames(prompt, 6, [0]);
    const [r, , b] = rgbAt(frame!, pond.x, pond.y);
    expect(b).toBeGreaterThan(r + 30);
    // Grass beside the pond, in front of it and behind it: no sea up to the horizon.
    for (const [x, y] of [
      [pond.x - pond.rx - 20, pond.y],
      [pond.x, Math.min(pond.y + pond.ry + 6, FRAME.height / 2 - 1)],
      [pond.x, p.stage.horizon + 4],
    ] as const) {
      const [lr, lg, lb] = rgbAt(frame!, x, y);
      expect(lg, `green at ${x}, ${y}`).toBeGreaterThan(lb);
      expect(lg).toBeGreaterThan(lr);
    }
  });

  it('keeps walkers and houses on its banks', () => {
    const p = plan('a house and people by a pond', 8);
    const pond = pondOf(p.stage);
    for (const s of p.subjects) {
      const half = pondHalfAt(pond, s.foot);
      expect(Math.abs(s.x - pond.x) >= half, `${s.subject} at ${s.x}, ${s.foot}`).toBe(true);
    }
  });
});

describe('lily pads', () => {
  it('float on the pond as green discs, a frog sits on one, and no notepad is drawn', () => {
    const prompt = 'a frog on a lily pad in a pond';
    const p = plan(prompt, 3);
    expect(p.forms).toEqual(expect.arrayContaining(['land', 'pond', 'lilypads']));
    expect(p.things.map((t) => t.thing.art)).toEqual(['frog']);
    expect(p.nouns.drawn).toEqual(expect.arrayContaining(['lily', 'pad', 'pond', 'frog']));
    const pond = pondOf(p.stage);
    const pads = lilyPadsOf(p.stage, p.forms);
    expect(pads.length).toBeGreaterThan(3);
    for (const pad of pads) expect(Math.abs(pad.x - pond.x)).toBeLessThan(pondHalfAt(pond, pad.y));
    const [frog] = p.things;
    expect(frog!.thing.motion).toBe('still');
    expect(pads.some((pad) => Math.abs(pad.x - frog!.x) < 1 && Math.abs(pad.y - frog!.foot) < pad.r)).toBe(
      true,
    );
    const [frame] = frames(prompt, 3, [0]);
    const leafy = pads
      .filter((pad) => pad !== pads.at(-1))
      .map((pad) => rgbAt(frame!, pad.x - 0.5 * pad.r, pad.y));
    for (const [r, g, b] of leafy) {
      expect(g).toBeGreaterThan(b);
      expect(g).toBeGreaterThan(r);
    }
  });

  it('bring a pond where the words name no water, and lie on a river where they name one', () => {
    expect(plan('lily pads').forms).toEqual(expect.arrayContaining(['land', 'pond', 'lilypads']));
    const p = plan('water lilies on a river');
    expect(p.forms).toContain('river');
    expect(p.forms).not.toContain('pond');
    expect(p.things.map((t) => t.thing.art)).not.toContain('spiral-notepad');
  });
});

describe('canoes', () => {
  it('are canoes for canoes and kayaks, floating on the water, not sailboats', () => {
    const p = plan('fishermen in canoes at dawn');
    expect(p.subjects.filter((s) => s.subject === 'boat')).toHaveLength(0);
    const canoes = p.things.filter((t) => t.thing.art === 'canoe');
    expect(canoes).toHaveLength(3);
    for (const canoe of canoes) {
      expect(canoe.thing.habitat).toBe('water');
      expect(canoe.foot).toBeGreaterThan(p.stage.horizon);
    }
    expect(plan('a kayak on a lake').things.map((t) => t.thing.art)).toEqual(['canoe']);
    expect(plan('a sailboat on a lake').subjects.map((s) => s.subject)).toEqual(['boat']);
  });

  it('float on a pond within its water', () => {
    const p = plan('a canoe on a pond', 2);
    const pond = pondOf(p.stage);
    const [canoe] = p.things;
    expect(canoe!.thing.art).toBe('canoe');
    expect(Math.abs(canoe!.x - pond.x)).toBeLessThan(pondHalfAt(pond, canoe!.foot - 0.12 * canoe!.height));
  });
});
