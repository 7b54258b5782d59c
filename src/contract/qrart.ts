/**
 * `/qrart/tasks`: one path for two kinds. `generate` (the declared default) submits an artistic
 * QR code task with the members of the QR task's `request`; `retrieve` and `retrieve_batch` read
 * tasks like every other family's retrieval endpoint.
 */
import {
  Type,
  Closed,
  StringEnum,
  Nullable,
  InputUrl,
  CallbackUrl,
  AsyncFlag,
  type TSchema,
} from './schema.js';
import { allowedOnlyWhen, requiredWhen, type Body } from './rules.js';
import { TaskAccepted, TaskRecord } from './responses.js';
import { retrievalMembers, retrievalRules } from './tasks.js';
import type { Operation, Rule } from './types.js';
// The capacity rule is the QR standard's, kept by the encoder in a module that imports nothing.
// Deep on purpose: the contract loads with every CLI command, and engines/qr/index.js would bring
// the whole renderer (canvas, PNG/JPEG codec, jsQR, the worker pool) along with this table.
import { capacityOf, isAscii } from '../engines/qr/capacity.js';

export const QR_TYPES = ['link', 'text', 'email', 'phone', 'sms'] as const;
export const QR_ECLS = ['L', 'M', 'Q', 'H'] as const;
export const QR_PIXEL_STYLES = ['square', 'rounded', 'dot', 'squircle', 'row', 'column'] as const;
export const QR_MARKER_SHAPES = [
  'square',
  'circle',
  'plus',
  'box',
  'octagon',
  'random',
  'tiny-plus',
] as const;
export const QR_SUB_MARKERS = ['square', 'circle', 'box', 'random', 'plus'] as const;
export const QR_POSITIONS = [
  'center',
  'top',
  'right',
  'bottom',
  'left',
  'top-left',
  'top-right',
  'bottom-left',
  'bottom-right',
] as const;
type Ecl = (typeof QR_ECLS)[number];

/** Byte-mode capacity of the largest QR code at each correction level, for ASCII text. */
export const QR_CAPACITY: Readonly<Record<Ecl, number>> = {
  L: capacityOf('', 'L'),
  M: capacityOf('', 'M'),
  Q: capacityOf('', 'Q'),
  H: capacityOf('', 'H'),
};

/**
 * Defaults of the generation members. They are filled in by a rule, not by the schema: a schema
 * default would land in retrieve bodies too, where generation members are refused.
 */
const GENERATE_DEFAULTS = { type: 'text', ecl: 'H', aspect_ratio: '1:1' } as const;

const Short = (description: string) => Type.String({ maxLength: 200, description });

export const qrGenerationMembers = {
  content: Type.Optional(
    Type.String({
      minLength: 1,
      description: `What the code encodes; required with generate. At most ${QR_CAPACITY.L}, ${QR_CAPACITY.M}, ${QR_CAPACITY.Q} or ${QR_CAPACITY.H} bytes of UTF-8 at ecl L, M, Q or H, one less when not all ASCII`,
    }),
  ),
  type: Type.Optional(
    StringEnum(QR_TYPES, {
      description:
        'Kind of content (default text): link is an http(s) URL, email an address, phone and sms a number',
    }),
  ),
  ecl: Type.Optional(StringEnum(QR_ECLS, { description: 'Error correction level (default H)' })),
  pixel_style: Type.Optional(
    StringEnum(QR_PIXEL_STYLES, {
      description: 'Module shape',
    }),
  ),
  marker_shape: Type.Optional(
    StringEnum(QR_MARKER_SHAPES, {
      description: 'Shape of the finder markers',
    }),
  ),
  sub_marker: Type.Optional(
    StringEnum(QR_SUB_MARKERS, {
      description: 'Shape of the inner markers',
    }),
  ),
  rotate: Type.Optional(StringEnum(['0', '90', '180', '270'] as const, { description: 'Rotation, degrees' })),
  position: Type.Optional(StringEnum(QR_POSITIONS, { description: 'Where the code sits in the image' })),
  aspect_ratio: Type.Optional(
    StringEnum(['1:1', '16:9', '9:16', '4:3', '3:4'] as const, {
      description: 'Image shape (default 1:1): 768×768, 1008×576, 576×1008, 864×672, 672×864',
    }),
  ),
  padding_level: Type.Optional(
    StringEnum(['0', '5', '10', '15', '20'] as const, { description: 'Quiet zone' }),
  ),
  padding_noise: Type.Optional(
    StringEnum(['0', '0.25', '0.5', '0.75', '1'] as const, { description: 'Noise in the quiet zone' }),
  ),
  qrw: Type.Optional(
    Type.Number({
      minimum: 1.5,
      maximum: 3,
      description: 'QR weight: higher is more scannable, less artistic',
    }),
  ),
  steps: Type.Optional(Type.Integer({ minimum: 10, maximum: 20, description: 'Diffusion steps' })),
  seed: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Seed, for reproducible images',
    }),
  ),
  prompt: Type.Optional(Type.String({ maxLength: 1000, description: 'What the image shows' })),
  negative_prompt: Type.Optional(Nullable(Type.String({ maxLength: 1000, description: 'What to avoid' }))),
  preset: Type.Optional(Short('Named preset of style settings')),
  pattern: Type.Optional(Short('Named pattern for the code')),
  // The spec gives ratio and timeout only as nullable: ratio is kept as an opaque label, timeout
  // as the seconds the generation may take, bounded like the synchronous wait.
  ratio: Type.Optional(Nullable(Type.String({ maxLength: 32, description: 'Ratio label, echoed back' }))),
  timeout: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: 600, description: 'Seconds the generation may take' })),
  ),
  image_origin: Type.Optional(Nullable(Short('Origin of the image, echoed back'))),
  content_image_url: Type.Optional(Nullable(InputUrl('Image to blend the code into'))),
  callback_url: Type.Optional(Nullable(CallbackUrl())),
  trace_id: Type.Optional(
    Type.String({
      maxLength: 256,
      description: 'Accepted because a retrieved request echoes it; the service assigns its own',
    }),
  ),
  async: Type.Optional(AsyncFlag()),
};

export const QrartRequest = Closed({
  action: Type.Optional(
    StringEnum(['generate', 'retrieve', 'retrieve_batch'] as const, {
      default: 'generate',
      description: 'generate submits a task; retrieve reads one by id; retrieve_batch reads several',
    }),
  ),
  ...retrievalMembers,
  ...qrGenerationMembers,
});

const isGenerate = (body: Body) => body.action === 'generate';

const chosenEcl = (body: Body): Ecl | undefined =>
  body.ecl === undefined ? 'H' : QR_ECLS.find((e) => e === body.ecl);

/** Counted in UTF-8 bytes: byte mode is what any content can be encoded in. */
const contentFits: Rule = (body) => {
  const ecl = chosenEcl(body);
  if (!isGenerate(body) || typeof body.content !== 'string' || ecl === undefined) return [];
  const max = capacityOf(body.content, ecl);
  const bytes = Buffer.byteLength(body.content, 'utf8');
  const which = isAscii(body.content) ? '' : ' for text that is not all ASCII';
  return bytes > max
    ? [
        {
          field: 'content',
          rule: `must be at most ${max} bytes of UTF-8 at ecl ${ecl}${which} (it is ${bytes})`,
        },
      ]
    : [];
};

function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(text)) return false;
  try {
    return new URL(text).hostname !== '';
  } catch {
    return false;
  }
}

// Plain forms only: the engine writes the mailto:, tel: and SMSTO: prefixes itself. Phone numbers
// follow E.164 (at most 15 digits); 3 digits admits short codes and emergency numbers.
const PHONE = /^\+?\d{3,15}$/;
const CONTENT_FORMS: Partial<Record<(typeof QR_TYPES)[number], [(text: string) => boolean, string]>> = {
  link: [isHttpUrl, 'must be an http(s) URL when type is link'],
  email: [(t) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t), 'must be an email address when type is email'],
  phone: [
    (t) => PHONE.test(t),
    'must be a phone number (3 to 15 digits, optional leading +) when type is phone',
  ],
  sms: [(t) => PHONE.test(t), 'must be a phone number (3 to 15 digits, optional leading +) when type is sms'],
};

const contentMatchesType: Rule = (body) => {
  const type = (body.type ?? 'text') as (typeof QR_TYPES)[number];
  const form = CONTENT_FORMS[type];
  if (!isGenerate(body) || typeof body.content !== 'string' || form === undefined) return [];
  const [matches, rule] = form;
  return matches(body.content) ? [] : [{ field: 'content', rule }];
};

const generateDefaults: Rule = (body) => {
  if (isGenerate(body)) {
    for (const [field, value] of Object.entries(GENERATE_DEFAULTS)) body[field] ??= value;
  }
  return [];
};

const qrartRules: readonly Rule[] = [
  requiredWhen('content', isGenerate, 'action is generate'),
  ...Object.keys(qrGenerationMembers).map((f) => allowedOnlyWhen(f, isGenerate, 'action is generate')),
  contentFits,
  contentMatchesType,
  ...retrievalRules,
  generateDefaults,
];

const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
const NullableString = () => Nullable(Type.String());

/** The QR task's `request` as the spec types it: the body as sent, secrets removed. */
const QrRequestEcho = Type.Object({
  ecl: opt(Type.String()),
  qrw: opt(Type.Number()),
  seed: opt(Type.Integer()),
  type: opt(Type.String()),
  ratio: opt(NullableString()),
  steps: opt(Type.Integer()),
  preset: opt(Type.String()),
  prompt: opt(Type.String()),
  rotate: opt(Type.String()),
  content: opt(Type.String()),
  pattern: opt(Type.String()),
  timeout: opt(Nullable(Type.Integer())),
  position: opt(Type.String()),
  trace_id: opt(Type.String()),
  sub_marker: opt(Type.String()),
  pixel_style: opt(Type.String()),
  aspect_ratio: opt(Type.String()),
  callback_url: opt(NullableString()),
  image_origin: opt(NullableString()),
  marker_shape: opt(Type.String()),
  padding_level: opt(Type.String()),
  padding_noise: opt(Type.String()),
  negative_prompt: opt(NullableString()),
  content_image_url: opt(NullableString()),
});

/** A failed task has no image, so only `success` is always there. */
const QrResult = Type.Object({
  seed: opt(Type.Integer()),
  success: Type.Boolean(),
  image_url: opt(Type.String()),
  image_width: opt(Type.Integer()),
  image_height: opt(Type.Integer()),
});

/** The spec's QR task, with the members every task record carries (DECISIONS 3). */
export const QrTask = Type.Object({
  ...TaskRecord.properties,
  request: QrRequestEcho,
  response: opt(QrResult),
});

export const QrTaskBatch = Type.Object({ items: Type.Array(QrTask), count: Type.Integer() });

export const qrart: Operation = {
  path: '/qrart/tasks',
  family: 'qrart',
  kind: 'task',
  summary: 'Artistic QR codes: generate one, or retrieve tasks by id, by ids, or as a page of your own',
  accept: ['application/json'],
  priceKey: 'qrart.tasks',
  request: QrartRequest,
  rules: qrartRules,
  // A submission with callback_url or async is answered at once with the task ids only.
  response: Type.Union([QrTask, QrTaskBatch, TaskAccepted]),
  // The default action is generate, so a body that has not been through the schema yet counts too.
  kindOf: (body) => ((body.action ?? 'generate') === 'generate' ? 'task' : 'retrieval'),
  answer: 'record',
};
