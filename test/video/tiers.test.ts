/** service_tier flex gives way: a flex video starts only once no default-tier video is under way. */
import { describe, expect, it } from 'vitest';
import { TierGate } from '../../src/providers/video/tiers.js';

describe('TierGate', () => {
  it('holds a flex video while a default one renders, and lets it go after', async () => {
    const gate = new TierGate();
    const signal = new AbortController().signal;
    const order: string[] = [];
    const releaseDefault = await gate.enter(false, signal);
    const flex = gate.enter(true, signal).then((release) => {
      order.push('flex');
      release();
    });
    const other = await gate.enter(false, signal);
    order.push('default');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['default']);
    releaseDefault();
    other();
    await flex;
    expect(order).toEqual(['default', 'flex']);
  });

  it('lets a flex video go at once when nothing else renders, and stops waiting when aborted', async () => {
    const gate = new TierGate();
    await expect(gate.enter(true, new AbortController().signal)).resolves.toBeTypeOf('function');
    const busy = await gate.enter(false, new AbortController().signal);
    const controller = new AbortController();
    const waiting = gate.enter(true, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    busy();
  });
});
