/**
 * Admission in memory on SQLite (accounts/admission.ts), on a real better-sqlite3 database: how
 * often a token's balance is read. Requests one after another, or streams, whose admission ends
 * once they are held, share one read within 100 ms; a stale read, or a request the remembered
 * balance would refuse, reads again.
 */
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Admission } from '../../src/accounts/admission.js';

/** A database with one account holding `credits`, and the count of balance reads made on it. */
function tokenDatabase(credits: number) {
  const sqlite = new SqliteDatabase(':memory:');
  sqlite.exec('create table accounts (id text primary key, credits integer)');
  sqlite.prepare('insert into accounts (id, credits) values (?, ?)').run('payer', credits);
  let reads = 0;
  const prepare = sqlite.prepare.bind(sqlite);
  vi.spyOn(sqlite, 'prepare').mockImplementation((source: string) => {
    const statement = prepare(source);
    const get = statement.get.bind(statement);
    statement.get = (...values: unknown[]) => {
      reads += 1;
      return get(...values);
    };
    return statement;
  });
  return {
    admission: new Admission(sqlite),
    reads: () => reads,
    setBalance: (to: number) => prepare('update accounts set credits = ?').run(to),
  };
}

describe('admission in memory', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the balance once for requests one after another within 100 ms, and again after', () => {
    const { admission, reads } = tokenDatabase(100);
    for (let i = 0; i < 5; i += 1) {
      expect(admission.admit('payer', 10)).toBe(true);
      admission.release('payer', 10, 3);
      vi.advanceTimersByTime(10);
    }
    expect(reads()).toBe(1);
    vi.advanceTimersByTime(100);
    expect(admission.admit('payer', 10)).toBe(true);
    expect(reads()).toBe(2);
  });

  it('counts what it charged since the read, and reads again before refusing', () => {
    const { admission, reads, setBalance } = tokenDatabase(20);
    expect(admission.admit('payer', 15)).toBe(true);
    // The charge committed (by the batch, in the server).
    setBalance(5);
    admission.release('payer', 15, 15);
    // 5 left as far as this process knows: 6 is refused only after a fresh read says so.
    expect(admission.admit('payer', 6)).toBe(false);
    expect(reads()).toBe(2);
    // A top-up counts at once.
    setBalance(30);
    expect(admission.admit('payer', 6)).toBe(true);
    expect(reads()).toBe(3);
  });

  it('reads again after a charge the balance refused', () => {
    const { admission, reads } = tokenDatabase(20);
    expect(admission.admit('payer', 5)).toBe(true);
    admission.release('payer', 5, 0, true);
    expect(admission.admit('payer', 5)).toBe(true);
    expect(reads()).toBe(2);
  });
});
