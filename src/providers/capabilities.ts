/**
 * Every capability of the server, in the order they are built: a capability may use one built
 * before it (music writes its lyrics with chat).
 */
import { chat } from './chat/index.js';
import { identity } from './identity/index.js';
import type { CapabilityPlugin } from './plugin.js';
import { qrart } from './qrart/index.js';
import { serp } from './serp/index.js';
import { tune } from './tune/index.js';
import { video } from './video/index.js';

export const CAPABILITIES: readonly CapabilityPlugin[] = [chat, serp, qrart, tune, video, identity];
