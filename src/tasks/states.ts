/** The states of a task. A terminal state is final: the move into it is a compare-and-swap. */
export type TaskState = 'queued' | 'running' | 'succeeded' | 'failed' | 'expired';

export const TERMINAL: readonly TaskState[] = ['succeeded', 'failed', 'expired'];
export const LIVE: readonly TaskState[] = ['queued', 'running'];

export function isTerminal(state: string): boolean {
  return (TERMINAL as readonly string[]).includes(state);
}
