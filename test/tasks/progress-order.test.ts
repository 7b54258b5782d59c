/**
 * One task's writes go out in the order they were made: a progress report and the engine's
 * progress data written side by side must not publish their snapshots the other way round, even
 * when the earlier write is the slower one.
 */
import { describe, expect, it } from 'vitest';
import { ProgressReports } from '../../src/tasks/progress.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('progress reports', () => {
  it('publish a report and the data written after it in that order, whatever each write takes', async () => {
    const published: string[] = [];
    const reports = new ProgressReports(
      async (progress) => {
        await sleep(40); // the slow write goes first
        published.push(`report ${progress.fraction}`);
      },
      (error) => {
        throw error;
      },
    );
    reports.report(0.5, 'step');
    const data = reports.inLine(async () => {
      await sleep(1);
      published.push('data');
      return 'kept';
    });
    await expect(data).resolves.toBe('kept');
    await reports.close();
    expect(published).toEqual(['report 0.5', 'data']);
  });

  it("hand a failed data write's error to its caller and keep the line going", async () => {
    const published: number[] = [];
    const reports = new ProgressReports(
      async (progress) => void published.push(progress.fraction),
      () => undefined,
    );
    await expect(reports.inLine(() => Promise.reject(new Error('database gone')))).rejects.toThrow(
      'database gone',
    );
    reports.report(0.3, 'step');
    await reports.close();
    expect(published).toEqual([0.3]);
  });
});
