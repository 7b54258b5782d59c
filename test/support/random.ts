/** A seeded generator of random and malformed JSON, so that a failing fuzz run can be replayed. */
export class Random {
  constructor(private state: number) {}

  /** Mulberry32: small, fast, and good enough to explore inputs. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  string(): string {
    return this.pick([
      () => '',
      () => ' ',
      () => 'x'.repeat(this.int(5000)),
      () => '\u0000\u202e\ud83d\ude00\uffff',
      () => 'https://example.com/a.png',
      () => 'http://169.254.169.254/latest',
      () => 'data:image/png;base64,AAAA',
      () => '{"type":"simple","config":{"pan":2}}',
      () => '--dur 99 --rs 4k --seed -7 --fps 1',
      () => '[Pan left, Explode]',
      () => '00000000-0000-4000-8000-000000000000',
      () => String(this.next()),
      () => '<script>alert(1)</script>',
      () => "'; drop table tokens; --",
    ])();
  }

  number(): number {
    return this.pick([
      0,
      -1,
      1,
      2,
      5,
      10,
      29,
      33,
      289,
      4294967296,
      -0.5,
      0.5,
      1e308,
      -1e308,
      2 ** 53,
      128,
      129,
    ]);
  }

  value(depth = 0): unknown {
    const kinds = depth > 4 ? 4 : 7;
    switch (this.int(kinds)) {
      case 0:
        return this.string();
      case 1:
        return this.number();
      case 2:
        return this.next() < 0.5;
      case 3:
        return null;
      case 4:
        return this.string();
      case 5:
        return Array.from({ length: this.int(6) }, () => this.value(depth + 1));
      default:
        return Object.fromEntries(
          Array.from({ length: this.int(5) }, () => [this.key(), this.value(depth + 1)]),
        );
    }
  }

  key(): string {
    return this.pick([
      'action',
      'model',
      'prompt',
      'content',
      'messages',
      'type',
      'id',
      'ids',
      'config',
      'x',
      '__proto__',
      'constructor',
    ]);
  }

  /** A known-good body with one member changed, removed or added. */
  mutate(body: Record<string, unknown>): Record<string, unknown> {
    const copy = structuredClone(body);
    const keys = Object.keys(copy);
    const op = this.int(4);
    if (op === 0 && keys.length > 0) delete copy[this.pick(keys)];
    else if (op === 1 && keys.length > 0) copy[this.pick(keys)] = this.value();
    else if (op === 2) copy[this.key()] = this.value();
    else for (const k of keys) if (this.next() < 0.3) copy[k] = this.value();
    return copy;
  }

  /** Text that is not JSON, or not quite. */
  malformed(valid: string): string {
    return this.pick([
      () => valid.slice(0, this.int(valid.length)),
      () => valid.replace(/"/g, "'"),
      () => `${valid},`,
      () => '['.repeat(5000),
      () => '{"a":'.repeat(2000),
      () => String.fromCharCode(...Array.from({ length: 64 }, () => this.int(256))),
      () => '',
      () => '{"query": "\\ud800"}',
      () => '{"a":1,"a":2}',
    ])();
  }
}
