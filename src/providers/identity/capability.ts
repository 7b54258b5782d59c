/**
 * The identity operations. Without identity channels, the local engine reads the card and the
 * local registry is the verification source; with `passthrough` channels, the request goes to an
 * external service of the same interface, with routing, retries and fallback. Either way the
 * token's field key opens encrypted request members and seals the sensitive members of answers.
 */
import { IdcardCheckResponse, IdcardOcrResponse } from '../../contract/identity.js';
import { fetchInput, type MediaSources } from '../../net/media.js';
import { LineStream, type Call, type Capability } from '../index.js';
import type { ChannelRouter, RoutedChannel } from '../router.js';
import { sealAnswer, openRequest } from './field-cipher.js';
import type { FieldKeys } from './field-keys.js';
import { checkCard, verifyCard, type CheckConfig, type Flow, type Stage } from './flows.js';
import type { IdentityPassthrough } from './channels/passthrough.js';
import type { VerificationSource } from './registry.js';
import type { CardEngine } from './types.js';
import { unservedFamily } from '../unserved.js';

/** Card photos larger than this are refused (a phone photo is a few MB). */
const IMAGE_BYTES = 20 * 1024 * 1024;

const CHECK = '/identity/idcard/check-1e';

/** What an answer seals when the token has a field key. */
const SEALED_MEMBERS = {
  [CHECK]: ['name', 'id_num', 'birth', 'address', 'portrait'],
  '/identity/idcard/ocr': ['name', 'id_card', 'birth', 'address'],
} as const;

export interface IdentityDeps {
  media: MediaSources;
  keys: FieldKeys;
  /** The local engine and source; absent where only channels serve identity. */
  local?: { engine: CardEngine; source: VerificationSource };
  channels?: { router: ChannelRouter<RoutedChannel>; backends: ReadonlyMap<string, IdentityPassthrough> };
  /** Keep each card image in the blob store (off by default: images live for the request only). */
  keepImages: boolean;
}

/** The flows' answers, seen as plain members for sealing. */
async function* members<T extends object>(flow: Flow<T>): Flow<Record<string, unknown>> {
  const answer: object = yield* flow;
  return { ...answer };
}

async function drain<T>(flow: Flow<T>): Promise<T> {
  for (;;) {
    const next = await flow.next();
    if (next.done) return next.value;
  }
}

export class IdentityCapability implements Capability {
  constructor(private readonly deps: IdentityDeps) {}

  async close(): Promise<void> {
    await this.deps.local?.engine.close();
  }

  async handle(call: Call): Promise<unknown> {
    const tokenId = call.token.id;
    const body = await openRequest(call.body, (version) => this.deps.keys.version(tokenId, version));
    const path = call.operation.path;
    const flow = this.flow(call, body);
    const seal = async (answer: Record<string, unknown>) => {
      const key = await this.deps.keys.newest(tokenId);
      return key ? sealAnswer(answer, SEALED_MEMBERS[path as keyof typeof SEALED_MEMBERS], key) : answer;
    };
    if (call.accept !== 'application/x-ndjson') return seal(await drain(flow));
    return new LineStream(
      (async function* (): AsyncGenerator<Stage | Record<string, unknown>> {
        const answer = yield* flow;
        yield await seal(answer);
      })(),
    );
  }

  private flow(call: Call, body: Record<string, unknown>): Flow<Record<string, unknown>> {
    const path = call.operation.path;
    const { channels, local } = this.deps;
    if (channels?.router.serves('identity')) return this.forwarded(call, body, channels);
    if (!local) throw unservedFamily('identity', path);
    const image = () => this.image(String(body.image_url));
    if (path === CHECK) {
      const config = (body.config ?? {}) as CheckConfig;
      return members(checkCard(local.engine, local.source, image, config, call.signal));
    }
    const given = { name: String(body.name), id_card: String(body.id_card) };
    return members(verifyCard(local.engine, local.source, image, given, call.signal));
  }

  // An upstream's answer comes whole: there are no stages of ours to report on the way.
  // eslint-disable-next-line require-yield
  private async *forwarded(
    call: Call,
    body: Record<string, unknown>,
    channels: NonNullable<IdentityDeps['channels']>,
  ): Flow<Record<string, unknown>> {
    const path = call.operation.path;
    const schema = path === CHECK ? IdcardCheckResponse : IdcardOcrResponse;
    // The channel's `models` name the operations it serves: check-1e, ocr, or *.
    const operation = path.slice(path.lastIndexOf('/') + 1);
    const caller = { token: call.token.id, signal: call.signal };
    return channels.router.run('identity', operation, caller, (channel) => {
      const backend = channels.backends.get(channel.name);
      if (!backend) throw new Error(`channel ${channel.name} has no backend`);
      return backend.call(path, body, schema, call.signal);
    });
  }

  private async image(url: string): Promise<Buffer> {
    const bytes = await fetchInput(this.deps.media, 'image_url', url, IMAGE_BYTES);
    if (this.deps.keepImages) await this.deps.media.blobs.put(bytes, bytes[0] === 0xff ? 'jpg' : 'png');
    return bytes;
  }
}
