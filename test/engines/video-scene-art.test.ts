/**
 * Scenes composed from the artwork library: for a set of prompts, the place chosen, what is
 * placed where (in the sky above the horizon, on the water, on the ground below it), how each
 * thing moves, the nouns reported unknown, the same seed giving the same plan and frame, and
 * places in their weather (snow on a forest's floor, on the mountains, under the night sky) and
 * with their fire (a campfire in one place, a volcano's cone and lava).
 */
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/engines/artwork/index.js';
import { campfireOf, volcanoOf } from '../../src/engines/video/fire.js';
import { swarmsFor } from '../../src/engines/video/particles.js';
import { sceneFrames } from '../../src/engines/video/render.js';
import { planScene, type ScenePlan } from '../../src/engines/video/scene.js';

const FRAME = { width: 320, height: 180 };
const plan = (prompt: string, seed = 5, negativePrompt?: string) =>
  planScene({ prompt, seed, negativePrompt }, FRAME);
const things = (p: ScenePlan, art: string) => p.things.filter((t) => t.thing.art === art);

describe('the artwork library', () => {
  it('holds thousands of things, found by name, label word, keyword, plural and compound head', () => {
    expect(catalogue().size.artworks).toBeGreaterThan(1600);
    expect(catalogue().size.words).toBeGreaterThan(4500);
    const art = (prompt: string) => plan(prompt).things.map((t) => t.thing.art);
    expect(art('a sloth')).toEqual(['sloth']);
    expect(art('an aubergine')).toEqual(['eggplant']);
    expect(art('a tortoise')).toEqual(['turtle']);
    expect(art('a garden of butterflies')).toEqual(['butterfly', 'butterfly', 'butterfly']);
    expect(art('a goldfish')).toEqual(['fish']);
    expect(art('an ice cream')).toEqual(['ice-cream']);
  });
});

describe('scene plans', () => {
  it('stands a lighthouse on a rock in the sea at dusk, not on a lawn', () => {
    const p = plan('a lighthouse at dusk');
    expect(p.forms).toContain('waves');
    expect(p.forms).not.toContain('land');
    expect(p.time).toBe('dusk');
    const [lighthouse] = p.subjects.filter((s) => s.subject === 'lighthouse');
    expect(lighthouse?.onRock).toBe(true);
  });

  it('puts camels, as many as said, on desert dunes below the horizon, walking', () => {
    const p = plan('two camels crossing the desert at sunrise');
    expect(p.forms).toContain('dunes');
    const camels = p.things.filter((t) => t.thing.noun === 'camel');
    expect(camels).toHaveLength(2);
    for (const camel of camels) {
      expect(camel.foot).toBeGreaterThan(p.stage.horizon);
      expect(camel.thing.motion).toBe('walk');
      expect(camel.speed).not.toBe(0);
    }
  });

  it('brings the sea for a whale, which floats on it', () => {
    const p = plan('a whale');
    expect(p.forms).toContain('waves');
    const [whale] = p.things;
    expect(whale?.thing.habitat).toBe('water');
    expect(whale?.thing.motion).toBe('float');
    expect(whale!.foot).toBeGreaterThan(p.stage.horizon);
  });

  it('flies balloons above the horizon, over the hills the words name', () => {
    const p = plan('hot air balloons over the hills');
    expect(p.forms).toContain('ridges');
    const balloons = things(p, 'balloon');
    expect(balloons.length).toBeGreaterThan(1);
    for (const b of balloons) {
      expect(b.foot).toBeLessThan(p.stage.horizon);
      expect(b.thing.motion).toBe('fly');
    }
  });

  it('sets a cat in a room on its floor, large as the picture’s subject', () => {
    const p = plan('a cat sleeping in a cozy room');
    expect(p.forms).toContain('room');
    const [cat] = things(p, 'cat');
    expect(cat!.foot).toBeGreaterThan(p.stage.horizon);
    expect(cat!.height).toBeGreaterThan(0.25 * FRAME.height);
  });

  it('gives a penguin snow, an astronaut space, and a parked bicycle no motion', () => {
    const penguin = plan('a penguin');
    expect(penguin.forms).toContain('snowfield');
    expect(penguin.weather).toContain('snow');
    const astronaut = plan('an astronaut in space');
    expect(astronaut.forms).toContain('planet');
    expect(astronaut.things[0]?.thing.habitat).toBe('space');
    const lantern = plan('a lantern in the park');
    expect(lantern.things[0]?.thing.motion).toBe('blink');
  });

  it('pitches a tent by the lake on its shore, not on the water', () => {
    const p = plan('a tent by the lake in autumn');
    expect(p.forms).toEqual(expect.arrayContaining(['waves', 'beach']));
    const [tent] = things(p, 'tent');
    expect(tent!.onRock).toBe(false);
  });

  it('keeps a place the words name over one a thing implies: ducks in a park stay in the park', () => {
    const p = plan('ducks in the park');
    expect(p.forms).toContain('land');
    expect(p.forms).not.toContain('waves');
  });

  it('reports nouns it has nothing for, and draws nothing the negative prompt names', () => {
    const p = plan('a zorblax and a cat at night');
    expect(p.nouns.unknown).toEqual(['zorblax']);
    expect(p.nouns.drawn).toContain('cat');
    expect(p.nouns.understood).toContain('night');
    const banned = plan('a cat and a dog', 5, 'dog');
    expect(banned.things.map((t) => t.thing.noun)).toEqual(['cat']);
  });
});

describe('seeds', () => {
  it('give the same plan and the same first frame again, and move things elsewhere when changed', () => {
    const spec = {
      seed: 9,
      prompt: 'a farm with cows and a tractor',
      ...FRAME,
      fps: 24,
      frames: 2,
      quality: 'std' as const,
    };
    const first = new Int32Array(FRAME.width * FRAME.height);
    const again = new Int32Array(FRAME.width * FRAME.height);
    sceneFrames(spec)(0, first);
    sceneFrames(spec)(0, again);
    expect(Buffer.from(again.buffer).equals(Buffer.from(first.buffer))).toBe(true);
    const xs = (seed: number) => plan(spec.prompt, seed).things.map((t) => Math.round(t.x));
    expect(xs(9)).toEqual(xs(9));
    expect(xs(10)).not.toEqual(xs(9));
    expect(
      plan(spec.prompt, 10)
        .things.map((t) => t.thing.art)
        .sort(),
    ).toEqual(
      plan(spec.prompt, 9)
        .things.map((t) => t.thing.art)
        .sort(),
    );
  });

  it('move the sea and pulse a lighthouse lantern while the camera holds still', () => {
    const spec = {
      seed: 3,
      prompt: 'a lighthouse at dusk',
      ...FRAME,
      fps: 24,
      frames: 24,
      quality: 'std' as const,
      camera: { kind: 'fixed' as const },
    };
    const paint = sceneFrames(spec);
    const [first, later] = [
      new Int32Array(FRAME.width * FRAME.height),
      new Int32Array(FRAME.width * FRAME.height),
    ];
    paint(0, first);
    paint(9, later);
    const p = plan(spec.prompt, spec.seed);
    // World (0, 0) is the middle of the frame while the camera holds still.
    const sea = Math.ceil(p.stage.horizon + FRAME.height / 2) + 2;
    let moved = 0;
    for (let i = sea * FRAME.width; i < first.length; i += 1) if (first[i] !== later[i]) moved += 1;
    expect(moved).toBeGreaterThan(20);
    const [lighthouse] = p.subjects.filter((s) => s.subject === 'lighthouse');
    const x = Math.round(lighthouse!.x + FRAME.width / 2);
    const y = Math.round(lighthouse!.foot - 0.435 * FRAME.height * lighthouse!.scale + FRAME.height / 2);
    const near = (frame: Int32Array) => {
      let sum = 0;
      for (let dy = -3; dy <= 3; dy += 1)
        for (let dx = -3; dx <= 3; dx += 1) sum += frame[(y + dy) * FRAME.width + x + dx]! & 0xff;
      return sum;
    };
    expect(near(later)).not.toBe(near(first));
  });

  it('paint the things into the frame: a cat in a room differs from the empty room', () => {
    const frame = (prompt: string) => {
      const out = new Int32Array(FRAME.width * FRAME.height);
      sceneFrames({ seed: 2, prompt, ...FRAME, fps: 24, frames: 1, quality: 'std' })(0, out);
      return out;
    };
    const [cat, room] = [frame('a cat in a room'), frame('a room')];
    let changed = 0;
    for (let i = 0; i < cat.length; i += 1) if (cat[i] !== room[i]) changed += 1;
    expect(changed / cat.length).toBeGreaterThan(0.03);
  });
});

describe('places in their weather and their fire', () => {
  /** The first frame, camera held still, so world (x, y) is frame pixel (x + w/2, y + h/2). */
  const firstFrame = (prompt: string, seed = 3) => {
    const out = new Int32Array(FRAME.width * FRAME.height);
    const spec = { seed, prompt, ...FRAME, fps: 24, frames: 1, quality: 'std' as const };
    sceneFrames({ ...spec, camera: { kind: 'fixed' } })(0, out);
    return out;
  };
  const rgbAt = (frame: Int32Array, u: number, v: number) => {
    const p = frame[Math.round(v) * FRAME.width + Math.round(u)]!;
    return [p & 0xff, (p >>> 8) & 0xff, (p >>> 16) & 0xff] as const;
  };
  /** Mean red, green and blue over the frame's lowest rows: the ground nearest the viewer. */
  const foreground = (frame: Int32Array) => {
    const sum = [0, 0, 0];
    let n = 0;
    for (let v = FRAME.height - 20; v < FRAME.height; v += 1)
      for (let u = 0; u < FRAME.width; u += 1) {
        rgbAt(frame, u, v).forEach((c, k) => (sum[k]! += c));
        n += 1;
      }
    return sum.map((c) => c / n);
  };
  const luminance = ([r, g, b]: readonly number[]) => 0.3 * r! + 0.59 * g! + 0.11 * b!;

  it('lays a snowy forest’s floor under snow, not grass', () => {
    const p = plan('a fox in a snowy forest');
    expect(p.forms).toContain('trunks');
    expect(p.stage.snowy).toBe(true);
    const [r, g, b] = foreground(firstFrame('a fox in a snowy forest'));
    expect(luminance([r!, g!, b!])).toBeGreaterThan(170);
    expect(b).toBeGreaterThanOrEqual(g! - 5);
    const summer = foreground(firstFrame('a fox in a forest'));
    expect(summer[1]).toBeGreaterThan(summer[2]!);
  });

  it('keeps snow pale under the night sky, brighter than the sea at night', () => {
    const p = plan('a snowman and a christmas tree at night');
    expect(p.forms).toContain('snowfield');
    expect(p.forms).not.toContain('waves');
    const snow = luminance(foreground(firstFrame('a snowman and a christmas tree at night')));
    const sea = luminance(foreground(firstFrame('the sea at night')));
    expect(snow).toBeGreaterThan(1.6 * sea);
    expect(plan('a field in winter').forms).toEqual(expect.arrayContaining(['snowfield']));
    expect(plan('a field in winter').forms).not.toContain('land');
  });

  it('covers the mountains with snow in winter, and greens the nearest hills by day', () => {
    const winter = plan('a cabin in the mountains in winter');
    expect(winter.forms).toContain('ridges');
    expect(winter.stage.snowy).toBe(true);
    expect(luminance(foreground(firstFrame('a cabin in the mountains in winter')))).toBeGreaterThan(170);
    const [r, g, b] = foreground(firstFrame('hot air balloons over the hills at noon'));
    expect(g).toBeGreaterThan(b!);
    expect(g).toBeGreaterThan(r!);
  });

  it('burns a campfire in one place on the ground, not along the whole world', () => {
    const p = plan('a campfire in the woods under the stars', 3);
    expect(p.forms).toEqual(expect.arrayContaining(['flames', 'trunks']));
    const frame = firstFrame('a campfire in the woods under the stars');
    const site = campfireOf(p.stage);
    const columns = new Set<number>();
    for (let v = 0; v < FRAME.height; v += 1)
      for (let u = 0; u < FRAME.width; u += 1) {
        const [r, g, b] = rgbAt(frame, u, v);
        if (r > 220 && g > 120 && b < 110) columns.add(u);
      }
    expect(columns.size).toBeGreaterThan(5);
    expect(columns.size).toBeLessThan(0.3 * FRAME.width);
    const middle = [...columns].reduce((a, c) => a + c, 0) / columns.size - FRAME.width / 2;
    expect(Math.abs(middle - site.x)).toBeLessThan(0.1 * FRAME.height);
    // Its flame's tongues and its sparks rise from it alone.
    const alone = plan('a campfire at night');
    expect(alone.weather).toEqual(['embers']);
    const swarms = swarmsFor(alone.weather, alone.forms, alone.stage, [-400, -200, 400, 200], 1);
    expect(swarms).toHaveLength(2);
    for (const swarm of swarms) expect(swarm.width).toBeLessThan(0.5 * FRAME.height);
  });

  it('raises a volcano as a mountain with lava, its fire in the crater', () => {
    const p = plan('a volcano erupting at dusk', 3);
    expect(p.forms).toContain('volcano');
    expect(p.forms).not.toContain('flames');
    expect(p.time).toBe('dusk');
    const v = volcanoOf(p.stage);
    expect(v.peak).toBeLessThan(p.stage.horizon - 0.2 * FRAME.height);
    const frame = firstFrame('a volcano erupting at dusk');
    const at = (x: number, y: number) => rgbAt(frame, x + FRAME.width / 2, y + FRAME.height / 2);
    // Halfway down its flank, just above the horizon, is dark rock where a plain has bright sky.
    const [x, y] = [v.x - 0.5 * v.spread, v.foot - 0.05 * FRAME.height];
    const plain = firstFrame('an empty plain at dusk');
    const sky = luminance(rgbAt(plain, x + FRAME.width / 2, y + FRAME.height / 2));
    expect(luminance(at(x, y))).toBeLessThan(sky - 40);
    let lava = 0;
    for (let v2 = 0; v2 < FRAME.height; v2 += 1)
      for (let u = 0; u < FRAME.width; u += 1) {
        const [r, g, b] = rgbAt(frame, u, v2);
        if (r > 200 && g > 70 && g < 200 && b < 90) lava += 1;
      }
    expect(lava).toBeGreaterThan(20);
  });

  it('takes the scene under the sea for underwater words: water overhead, fish in it, a seabed', () => {
    const p = plan('jellyfish and tropical fish underwater', 3);
    expect(p.forms).toContain('seabed');
    expect(p.forms).not.toContain('waves');
    expect(p.weather).toContain('bubbles');
    const swimmers = p.things.filter((t) => t.thing.habitat === 'water');
    expect(swimmers).toHaveLength(2);
    // Anywhere in the water, above the seabed, not only on a surface below the horizon.
    for (const t of swimmers) expect(t.foot).toBeLessThan(p.stage.horizon + 0.14 * FRAME.height);
    const frame = firstFrame('jellyfish and tropical fish underwater');
    // Overhead is water: bluer and greener than red, with no sky's sun.
    const [r, g, b] = rgbAt(frame, 10, 5);
    expect(b).toBeGreaterThan(r + 40);
    expect(g).toBeGreaterThan(r + 20);
  });

  it('shines one moon for a full moon, and paints a red car red', () => {
    const owl = plan('an owl on a branch under the full moon');
    expect(owl.forms).toContain('moon');
    expect(owl.things.map((t) => t.thing.art)).not.toContain('full-moon');
    expect(owl.nouns.drawn).toContain('full moon');
    // Whatever the seed.
    for (const seed of [3, 4, 5, 6, 7]) {
      const road = plan('a red car driving on a highway', seed);
      expect(road.forms).toEqual(expect.arrayContaining(['land', 'road', 'car']));
      const [car] = road.subjects.filter((c) => c.subject === 'car');
      const frame = firstFrame('a red car driving on a highway', seed);
      // The car's body, a little above its wheels.
      const [u, v] = [
        car!.x + FRAME.width / 2,
        car!.foot - 0.025 * FRAME.height * car!.scale + FRAME.height / 2,
      ];
      const [r, g, b] = rgbAt(frame, u, v);
      expect(r).toBeGreaterThan(g + 60);
      expect(r).toBeGreaterThan(b + 60);
    }
  });
});
