// A bench-only engine for the tune family: it answers at once, so that what a benchmark measures
// is the task machinery (queue, store, events, HTTP), not an engine.
import { randomUUID } from 'node:crypto';
import { Providers } from '../dist/providers/index.js';

export const instantProviders = () =>
  new Providers({
    tune: {
      async run(job) {
        return [
          {
            id: randomUUID(),
            model: String(job.input.model),
            title: 'instant',
            created_at: new Date().toISOString(),
          },
        ];
      },
    },
  });
