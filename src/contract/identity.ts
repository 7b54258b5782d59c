/**
 * The ID card endpoints: `/identity/idcard/check-1e` (card check and portrait similarity) and
 * `/identity/idcard/ocr` (name and number verified against the card and the reference record).
 * Business outcomes (a wrong checksum, a mismatch, a blurred card) are answered in `result`,
 * not as 400s: the contract checks only what a client can fix by changing the request.
 */
import { Type, Closed, InputUrl, ObjectOrJsonString, StringEnum } from './schema.js';
import { embeddedObject, isRecord } from './rules.js';
import type { MediaType, Operation, Rule } from './types.js';

const flag = (description: string) => Type.Optional(Type.Boolean({ default: false, description }));

/** The warning switches of check-1e (origin names). */
export const IdcardConfig = Closed({
  copy_warn: flag('Warn when the card is a photocopy'),
  border_check_warn: flag('Warn when the card border is cut off or covered'),
  reshoot_warn: flag('Warn when the image is a photo of a screen or of a print'),
  detect_ps_warn: flag('Warn when the image shows signs of editing'),
  temp_id_warn: flag('Warn when the card is a temporary ID card'),
  quality: flag('Score image quality; below 50 raises a blur warning'),
});

const ENCRYPTABLE = ['name', 'id_card'] as const;

const EncryptionItem = Closed({
  encrypt_list: Type.Array(StringEnum(ENCRYPTABLE), {
    minItems: 1,
    uniqueItems: true,
    description: 'Request members that carry ciphertext instead of plain text',
  }),
  algorithm: Type.String({ minLength: 1, description: 'Cipher used, e.g. AES-256-CBC or SM4-GCM' }),
  iv: Type.String({ minLength: 1, description: 'Initialisation vector' }),
  // Only authenticated modes (GCM) produce tags, so a CBC client has none to send.
  tag_list: Type.Optional(Type.Array(Type.String(), { description: 'Authentication tags, one per field' })),
  ciphertext_blob: Type.Number({ description: 'The wrapped data key' }),
});

/** Ciphertext is longer than the plain value, so the schema bounds only what any form fits. */
const CIPHER_MAX = 4096;

export const IdcardCheckRequest = Closed({
  image_url: InputUrl('Image of the ID card, portrait side'),
  config: Type.Optional(ObjectOrJsonString(IdcardConfig, 'Warning switches, each default false.')),
});

export const IdcardOcrRequest = Closed({
  name: Type.String({
    minLength: 1,
    maxLength: CIPHER_MAX,
    description: 'Name on the card (1–64 characters)',
  }),
  id_card: Type.String({
    minLength: 1,
    maxLength: CIPHER_MAX,
    description: 'Resident ID number: 17 digits then a digit or X',
  }),
  image_url: InputUrl('Image of the ID card, portrait side'),
  encryption: Type.Optional(
    Type.Array(EncryptionItem, { minItems: 1, description: 'Members sent encrypted, and how' }),
  ),
});

function encrypted(body: Record<string, unknown>, field: string): boolean {
  const items: unknown[] = Array.isArray(body.encryption) ? body.encryption : [];
  return items.some(
    (item) => isRecord(item) && Array.isArray(item.encrypt_list) && item.encrypt_list.includes(field),
  );
}

/** A plain-text format rule, skipped when the member is listed as encrypted. */
function plainText(field: string, test: (value: string) => boolean, rule: string): Rule {
  return (body) => {
    const value = body[field];
    return typeof value === 'string' && !encrypted(body, field) && !test(value) ? [{ field, rule }] : [];
  };
}

const NAME_MAX = 64;

const ocrRules: readonly Rule[] = [
  plainText(
    'name',
    (v) => v.trim() !== '' && [...v].length <= NAME_MAX,
    `must be 1 to ${NAME_MAX} characters, not only spaces (unless encrypted)`,
  ),
  // The check digit is not verified here: a wrong one is a business result (`result`), not a 400.
  plainText(
    'id_card',
    (v) => /^\d{17}[\dXx]$/.test(v),
    'must be an 18-character resident ID number: 17 digits then a digit or X (unless encrypted)',
  ),
];

const text = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));

const Encryption = Type.Optional(
  Type.Array(
    Type.Object({
      iv: text(),
      tag_list: Type.Optional(Type.Array(Type.String())),
      algorithm: text(),
      encrypt_list: Type.Optional(Type.Array(Type.String())),
      ciphertext_blob: Type.Optional(Type.Number()),
    }),
  ),
);

const cardData = {
  name: text(),
  sex: text(),
  nation: text(),
  birth: text('Date of birth'),
  address: text(),
  result: text('success, or a failure code'),
  description: text('The result in words'),
};

export const IdcardCheckResponse = Type.Object({
  ...cardData,
  id_num: text('ID number read from the card'),
  sim: Type.Optional(
    Type.Number({ minimum: 0, maximum: 100, description: 'Similarity; 70 or more: same person' }),
  ),
  quality: text('Image quality 0 to 100; below 50 raises a blur warning'),
  portrait: text('Base64 of the card portrait; empty when it could not be cut out'),
  warnings: text('The warnings that fired, comma-separated'),
  encryption: Encryption,
});

export const IdcardOcrResponse = Type.Object({
  ...cardData,
  id_card: text('The ID number verified'),
  // Not in the origin's answer: present when the token has a field key, as in check-1e.
  encryption: Encryption,
});

const identityOperation = {
  family: 'identity',
  kind: 'sync',
  accept: ['application/json', 'application/x-ndjson'],
  streams: (_: unknown, accept: MediaType) => accept === 'application/x-ndjson',
} as const;

export const idcardCheck: Operation = {
  ...identityOperation,
  path: '/identity/idcard/check-1e',
  summary: 'ID card check with portrait similarity',
  priceKey: 'identity.check',
  request: IdcardCheckRequest,
  rules: [embeddedObject('config', IdcardConfig)],
  response: IdcardCheckResponse,
};

export const idcardOcr: Operation = {
  ...identityOperation,
  path: '/identity/idcard/ocr',
  summary: 'ID card OCR, verified against the card and the reference record',
  priceKey: 'identity.ocr',
  request: IdcardOcrRequest,
  rules: ocrRules,
  response: IdcardOcrResponse,
};
