/**
 * A family served by upstreams of this same interface (music, QR art): every operation of the
 * family goes to its channels through the channel router (priority, weight, retries, fallback,
 * cooldown). A task stays ours (our id, our stream, our callback, our retrieval) while the
 * upstream's task is followed to its end, its progress passed on; the result is the upstream's
 * data as it is, so items keep the upstream's ids and file URLs, and a later action that names
 * one (extending an audio) goes to the same upstreams.
 */
import { resultOf } from '../../contract/table.js';
import type { Family, Operation } from '../../contract/types.js';
import type { Call, Capability, Job } from '../index.js';
import { ChannelRouter, type RoutedChannel, type RoutingPolicy } from '../router.js';
import { SameInterface, type PassthroughChannel } from './passthrough.js';

type RelayedChannel = RoutedChannel & PassthroughChannel;

/** What channels match on: the request's model where it has one, else the operation's path. */
function modelOf(operation: Operation, body: Record<string, unknown>): string {
  return typeof body.model === 'string' ? body.model : operation.path;
}

export class Relay implements Capability {
  private readonly router: ChannelRouter<RelayedChannel>;
  private readonly upstreams: ReadonlyMap<string, SameInterface>;

  constructor(
    private readonly family: Family,
    /** What the family makes, for messages: `music`, `QR code`. */
    private readonly noun: string,
    channels: readonly RelayedChannel[],
    policy: RoutingPolicy,
  ) {
    this.router = new ChannelRouter(channels, policy);
    this.upstreams = new Map(channels.map((c) => [c.name, new SameInterface(c)]));
  }

  private upstream(channel: RelayedChannel): SameInterface {
    const upstream = this.upstreams.get(channel.name);
    if (!upstream) throw new Error(`channel ${channel.name} has no upstream`);
    return upstream;
  }

  handle(call: Call): Promise<unknown> {
    const { operation, body, signal } = call;
    const caller = { token: call.token.id, signal };
    return this.router.run(this.family, modelOf(operation, body), caller, (channel) =>
      this.upstream(channel).call(operation.path, body, operation.response, signal),
    );
  }

  async run(job: Job): Promise<unknown> {
    const { operation, input, signal } = job;
    job.advance(0, 'upstream');
    const caller = { token: job.tokenId, signal };
    const { result } = await this.router.run(this.family, modelOf(operation, input), caller, (channel) =>
      this.upstream(channel).task(operation, input, {
        noun: this.noun,
        signal,
        onCheck: ({ fraction, stage }) => {
          if (fraction !== undefined) job.advance(fraction, stage ?? 'upstream');
        },
      }),
    );
    const response = result.response;
    return resultOf(
      operation,
      typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {},
    );
  }
}
