/**
 * `GET /{family}/models`: the models a family answers to on this server, in OpenAI's list shape
 * (`{object: "list", data: [{id, object: "model", created, owned_by}]}`). A model is listed when
 * the contract names it and an enabled channel of the family serves it (a local engine serves
 * every model of its family); a family whose requests name no model lists its operations by price
 * key (`serp.web`).
 */
import { OPERATIONS } from '../contract/table.js';
import type { ChannelBoard } from '../providers/channel-board.js';
import { globToRegExp } from '../providers/model-globs.js';

/** The enum of a request's `model` member, when it has one. */
function modelsOf(request: unknown): string[] {
  const model = (request as { properties?: { model?: { enum?: unknown[] } } }).properties?.model;
  return Array.isArray(model?.enum) ? model.enum.filter((m): m is string => typeof m === 'string') : [];
}

export function modelList(prefix: string, board: ChannelBoard) {
  const operations = OPERATIONS.filter((o) => o.path.startsWith(`${prefix}/`) && o.kind !== 'retrieval');
  const family = operations[0]?.family;
  const channels = board.entries.filter((e) => e.capability === family && !board.isDisabled(e.id));
  // The server's start, as `created`: the contract has no dates for its models.
  const created = Math.floor(STARTED / 1000);
  const listed = (id: string) => ({ id, object: 'model', created, owned_by: 'switchyard' });
  const named = [...new Set(operations.flatMap((o) => modelsOf(o.request)))];
  const served = (model: string) =>
    channels.some((c) => c.type === 'engine' || c.models.some((glob) => globToRegExp(glob).test(model)));
  const data =
    named.length > 0
      ? named.filter(served).map(listed)
      : channels.length > 0
        ? operations.map((o) => listed(o.priceKey))
        : [];
  return { object: 'list', data };
}

const STARTED = Date.now();
