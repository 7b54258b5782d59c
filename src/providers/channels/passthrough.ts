/**
 * The one channel to an upstream that speaks this same interface (another Switchyard, or a vendor
 * of it), shared by every capability. A synchronous operation's body goes up as it is and its
 * answer must fit the operation's response schema, so that an upstream that drifted fails over to
 * the next channel instead of handing clients a broken result. A task is submitted with
 * `"async": true`, so that the answer is a task id at once, and followed through the operation's
 * retrieval until its record is terminal; our client's `callback_url` stays here (the upstream
 * must not call our client), and the upstream's progress is passed on. A channel of type `origin`
 * is the same upstream under the origin's paths and model names (compat/origin.ts): each request
 * goes up in the origin's names, and each answer comes back in ours.
 */
import type { TSchema } from '@sinclair/typebox';
import { originModel, originPathOf, withOurModels } from '../../compat/origin.js';
import { retrievalPathOf } from '../../contract/table.js';
import type { Operation } from '../../contract/types.js';
import { checkSchema } from '../../contract/validate.js';
import { UpstreamFailure } from '../router.js';
import { jsonOf, postJson } from '../upstream.js';
import type { StopSignal } from '../stop-signal.js';
import {
  followUpstream,
  outsideContract,
  type FollowedChannel,
  type Following,
  type TaskCheck,
} from './follow.js';

export interface PassthroughChannel extends FollowedChannel {
  base_url?: string;
  /** `origin`: the upstream speaks the origin's names. */
  type?: string;
}

type Json = Record<string, unknown>;

/** A same-interface upstream answers on loopback or nearby: its tasks are polled from this soon. */
const FIRST_POLL_MS = 500;

/** Our task states that end a task, each but `succeeded` a failure. */
const ENDED = new Set(['failed', 'expired', 'canceled']);

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A finished upstream task: its id there and its terminal record. */
export interface UpstreamRecord {
  taskId: string;
  record: Json;
}

export class SameInterface {
  private readonly base: string;

  constructor(
    readonly channel: PassthroughChannel,
    private readonly options: { pollMs?: number } = {},
  ) {
    this.base = (channel.base_url ?? '').replace(/\/+$/, '');
  }

  /**
   * POSTs `body` to `path` (ours) and answers the JSON that came back, in our names whatever the
   * upstream's; `generation` marks a task's submission, whose path may differ from its retrieval's.
   */
  private async post(path: string, body: unknown, signal: StopSignal, generation = false): Promise<unknown> {
    if (this.channel.type !== 'origin') {
      return jsonOf(this.channel, await postJson(this.channel, `${this.base}${path}`, body, signal));
    }
    const sent =
      isObject(body) && typeof body.model === 'string' ? { ...body, model: originModel(body.model) } : body;
    const url = `${this.base}${originPathOf(path, generation)}`;
    return withOurModels(await jsonOf(this.channel, await postJson(this.channel, url, sent, signal)));
  }

  /** The same, for the task calls, whose answers are objects. */
  private async postForObject(
    path: string,
    body: unknown,
    signal: StopSignal,
    generation = false,
  ): Promise<Json> {
    const answer = await this.post(path, body, signal, generation);
    if (!isObject(answer))
      throw new UpstreamFailure(`${this.channel.name} sent an answer that is not an object`);
    return answer;
  }

  /** A synchronous operation: the answer, checked against `response`. */
  async call(path: string, body: unknown, response: TSchema, signal: StopSignal): Promise<Json> {
    const answer = await this.post(path, body, signal);
    const [first] = checkSchema(response, answer);
    if (first !== undefined) {
      throw new UpstreamFailure(
        `${this.channel.name} answered outside the contract: ${first.field} ${first.rule}`,
      );
    }
    return answer as Json;
  }

  /** A task operation, from submission to the upstream's terminal record. */
  task(
    operation: Operation,
    body: Json,
    following: Omit<Following, 'pollMs'>,
  ): Promise<{ taskId: string; result: Json }> {
    const { callback_url: _ours, ...rest } = body;
    const retrieval = retrievalPathOf(operation);
    return followUpstream(
      this.channel,
      { pollMs: this.options.pollMs ?? FIRST_POLL_MS, ...following },
      {
        submit: async (signal) => {
          const answer = await this.postForObject(operation.path, { ...rest, async: true }, signal, true);
          const id = answer.task_id;
          if (answer.success === true && typeof id === 'string') return id;
          throw new UpstreamFailure(`${this.channel.name} answered the submission without a task id`);
        },
        check: async (id, signal) =>
          this.checkOf(await this.postForObject(retrieval, { action: 'retrieve', id }, signal)),
      },
    );
  }

  /** What one retrieval says of the task: still going (and how far), its record, or its failure. */
  private checkOf(record: Json): TaskCheck<Json> {
    const state = record.state;
    if (state === 'queued' || state === 'running') {
      const progress = isObject(record.progress) ? record.progress : {};
      return {
        state,
        ...(typeof progress.fraction === 'number' ? { fraction: progress.fraction } : {}),
        ...(typeof progress.stage === 'string' ? { stage: progress.stage } : {}),
      };
    }
    if (state === 'succeeded') return { state, result: record };
    if (typeof state === 'string' && ENDED.has(state)) {
      const response = isObject(record.response) ? record.response : {};
      const error = isObject(response.error) ? response.error : isObject(record.error) ? record.error : {};
      const message = typeof error.message === 'string' ? error.message : `the task ended ${state}`;
      return { state: 'failed', message, refused: error.code === 'bad_request' };
    }
    throw outsideContract(this.channel, `a task record in the unknown state ${String(state)}`);
  }
}
