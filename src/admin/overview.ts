/** The last 24 hours at a glance: requests, errors and credits by hour; tasks and channels by state. */
import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import type { ChannelRow } from './channels.js';
import { iso } from './values.js';

const HOUR = 3_600_000;

export interface Overview {
  from: string | null;
  to: string | null;
  totals: { requests: number; errors: number; credits: number };
  hours: { hour: string | null; requests: number; errors: number; credits: number }[];
  tasks: Record<string, number>;
  channels: Record<string, number>;
}

export async function overview(db: Db, channels: ChannelRow[], now = Date.now()): Promise<Overview> {
  const end = now - (now % HOUR) + HOUR;
  const start = end - 24 * HOUR;
  const [byHour, tasks] = await Promise.all([
    db
      .selectFrom('usage')
      .select([
        sql<number>`created_at - created_at % ${HOUR}`.as('hour'),
        sql<number>`count(*)`.as('requests'),
        sql<number>`sum(case when status >= 400 then 1 else 0 end)`.as('errors'),
        sql<number>`coalesce(sum(credits), 0)`.as('credits'),
      ])
      .where('created_at', '>=', start)
      .groupBy(sql`1`)
      .execute(),
    db
      .selectFrom('tasks')
      .select(['state', sql<number>`count(*)`.as('count')])
      .groupBy('state')
      .execute(),
  ]);
  const found = new Map(byHour.map((row) => [Number(row.hour), row]));
  const hours = Array.from({ length: 24 }, (_, i) => {
    const hour = start + i * HOUR;
    const row = found.get(hour);
    return {
      hour: iso(hour),
      requests: Number(row?.requests ?? 0),
      errors: Number(row?.errors ?? 0),
      credits: Number(row?.credits ?? 0),
    };
  });
  const sum = (key: 'requests' | 'errors' | 'credits') => hours.reduce((total, h) => total + h[key], 0);
  const channelStates: Record<string, number> = { ok: 0, cooling: 0, disabled: 0, auto_disabled: 0 };
  for (const channel of channels) channelStates[channel.state] = (channelStates[channel.state] ?? 0) + 1;
  const taskStates: Record<string, number> = { queued: 0, running: 0, succeeded: 0, failed: 0, expired: 0 };
  for (const row of tasks) taskStates[row.state] = Number(row.count);
  return {
    from: iso(start),
    to: iso(end),
    totals: { requests: sum('requests'), errors: sum('errors'), credits: sum('credits') },
    hours,
    tasks: taskStates,
    channels: channelStates,
  };
}
