/**
 * A request's stop switch: what its work watches to learn that the client left. Listeners are
 * called once each, in order, and not at all once taken off; a real AbortSignal follows it where
 * an API wants one; a pause ends at the stop.
 */
import { describe, expect, it } from 'vitest';
import { abortSignalOf, pause, StopSwitch } from '../../src/providers/stop-signal.js';

describe('a stop switch', () => {
  it('calls each listener once, in the order added, with the reason set before', () => {
    const stop = new StopSwitch();
    const heard: string[] = [];
    const first = () => heard.push(`first ${String(stop.reason)}`);
    const removed = () => heard.push('removed');
    stop.addEventListener('abort', first);
    stop.addEventListener('abort', first);
    stop.addEventListener('abort', removed);
    stop.addEventListener('abort', () => heard.push(`second ${stop.aborted}`));
    stop.removeEventListener('abort', removed);
    expect(stop.aborted).toBe(false);
    stop.stop('client left');
    stop.stop('again');
    expect(heard).toEqual(['first client left', 'second true']);
    expect(stop.reason).toBe('client left');
    stop.addEventListener('abort', () => heard.push('too late'));
    stop.stop();
    expect(heard).toHaveLength(2);
  });

  it('stops with an AbortError when given no reason', () => {
    const stop = new StopSwitch();
    stop.stop();
    expect(stop.reason).toBeInstanceOf(DOMException);
    expect((stop.reason as DOMException).name).toBe('AbortError');
  });

  it('lends an AbortSignal that follows it until released', () => {
    const stop = new StopSwitch();
    const followed = abortSignalOf(stop);
    const released = abortSignalOf(stop);
    released.release();
    stop.stop('gone');
    expect(followed.signal.aborted).toBe(true);
    expect(followed.signal.reason).toBe('gone');
    expect(released.signal.aborted).toBe(false);
    expect(abortSignalOf(stop).signal.aborted).toBe(true);
    // An AbortSignal is followed the same way: what an API leaves on the one it gets goes with it.
    const real = new AbortController();
    const own = abortSignalOf(real.signal);
    expect(own.signal).not.toBe(real.signal);
    real.abort('left');
    expect(own.signal.reason).toBe('left');
  });

  it('ends a pause at the stop, and at once when already stopped', async () => {
    const stop = new StopSwitch();
    await pause(5, stop);
    let calls = 0;
    stop.addEventListener('abort', () => (calls += 1));
    const started = Date.now();
    const waiting = pause(60_000, stop);
    setTimeout(() => stop.stop(), 20);
    await waiting;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(calls).toBe(1);
    await pause(60_000, stop);
  });
});
