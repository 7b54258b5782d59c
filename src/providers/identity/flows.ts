/**
 * The two identity operations on the local engine, as generators of progress stages that return
 * the answer: `accept: application/x-ndjson` sends each stage as a line, JSON waits for the end.
 * Every outcome past the request's validation is a `result` code (results.ts), never a 400.
 */
import { parseIdNumber } from '../../engines/idcard/index.js';
import { UnreadableImage } from '../../engines/image-codec.js';
import { ModelMissing } from '../../engines/model-missing.js';
import { badRequest, ServiceError } from '../../errors.js';
import { outcome, type Outcome } from './results.js';
import type { IdentityRecord, VerificationSource } from './registry.js';
import type { CardEngine, CardInspection, CardReading, CardSignals } from './types.js';
import type { StopSignal } from '../stop-signal.js';

export interface Stage {
  stage: 'fetched' | 'recognised' | 'compared';
  elapsed_ms: number;
}

export type Flow<T> = AsyncGenerator<Stage, T>;

/** The `config` switches and the warning each raises, by its name in `warnings`. */
export const WARNINGS = {
  copy_warn: (s: CardSignals) => s.copy,
  border_check_warn: (s: CardSignals) => s.border,
  reshoot_warn: (s: CardSignals) => s.reshoot,
  detect_ps_warn: (s: CardSignals) => s.ps,
  temp_id_warn: (s: CardSignals) => s.temporary,
} as const;

const BLUR_BELOW = 50;

export type CheckConfig = Partial<Record<keyof typeof WARNINGS | 'quality', boolean>>;

export interface CardData {
  name: string;
  sex: string;
  nation: string;
  birth: string;
  address: string;
}

function cardData(card: CardReading): CardData {
  const { name, sex, nation, birth, address } = card.fields;
  return { name, sex, nation, birth, address };
}

/** The warnings asked for that fired, in the order of `config`'s documentation. */
export function firedWarnings(card: CardInspection, config: CheckConfig): string[] {
  const fired = Object.entries(WARNINGS)
    .filter(([name, test]) => config[name as keyof typeof WARNINGS] === true && test(card.signals))
    .map(([name]) => name);
  if (config.quality === true && card.quality < BLUR_BELOW) fired.push('blur_warn');
  return fired;
}

/**
 * What the card itself says about its validity: found, readable, a number that keeps the rules,
 * printed sex and birth agreeing with it. Undefined when all is well.
 */
export function cardFault(card: CardReading): Outcome | undefined {
  if (!card.found) return outcome('card_not_found');
  const number = card.fields.id_number;
  if (number === '') return outcome('fields_unreadable', 'the ID number could not be read');
  const facts = parseIdNumber(number);
  if (!facts.ok) return outcome('invalid_id_number', facts.rule);
  const disagreements: string[] = [];
  if (card.fields.sex !== '' && card.fields.sex !== facts.sex)
    disagreements.push(`printed sex ${card.fields.sex}, the number says ${facts.sex}`);
  if (card.fields.birth !== '' && card.fields.birth !== facts.birth)
    disagreements.push(`printed birth ${card.fields.birth}, the number says ${facts.birth}`);
  return disagreements.length > 0 ? outcome('card_inconsistent', disagreements.join('; ')) : undefined;
}

/**
 * The card read by the engine: bytes that are not an image are the client's to fix (400 naming
 * image_url); a model package missing on the machine is the operator's (503 naming it).
 */
async function engineStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof UnreadableImage) throw badRequest([{ field: 'image_url', rule: error.message }]);
    if (error instanceof ModelMissing)
      throw new ServiceError('busy', `identity is unavailable: ${error.message}`);
    throw error;
  }
}

export function stageClock(): (stage: Stage['stage']) => Stage {
  const started = performance.now();
  return (stage) => ({ stage, elapsed_ms: Math.round(performance.now() - started) });
}

export interface CheckAnswer extends CardData {
  id_num: string;
  sim?: number;
  quality: string;
  portrait: string;
  warnings: string;
  result: string;
  description: string;
}

/** `/identity/idcard/check-1e`: read the card, raise the warnings asked for, compare the portrait. */
export async function* checkCard(
  engine: CardEngine,
  source: VerificationSource,
  image: () => Promise<Buffer>,
  config: CheckConfig,
  signal: StopSignal,
): Flow<CheckAnswer> {
  const at = stageClock();
  const bytes = await image();
  yield at('fetched');
  const card = await engineStep(() => engine.inspect(bytes, signal));
  yield at('recognised');
  const fired = firedWarnings(card, config);
  const answer = {
    ...cardData(card),
    id_num: card.fields.id_number,
    quality: String(card.quality),
    portrait: card.portrait ? card.portrait.toString('base64') : '',
    warnings: fired.join(','),
  };
  const fault =
    (card.found ? undefined : outcome('card_not_found')) ??
    (fired.length > 0 ? outcome('ocr_warning', fired.join(', ')) : undefined) ??
    cardFault(card);
  if (fault) return { ...answer, ...fault };
  let reference: IdentityRecord | undefined;
  try {
    reference = await source.find(card.fields.id_number);
  } catch {
    return { ...answer, ...outcome('source_unavailable') };
  }
  if (!reference) return { ...answer, ...outcome('not_enrolled') };
  if (!reference.portrait) return { ...answer, ...outcome('no_reference_portrait') };
  // Without a portrait cut out, the whole card stands in for it (the score is then low).
  const portrait = reference.portrait;
  const sim = await engineStep(() => engine.similarity(card.portrait ?? card.card, portrait, signal));
  yield at('compared');
  return { ...answer, sim, ...outcome('success', `portrait similarity ${sim.toFixed(2)}`) };
}

export interface OcrAnswer extends CardData {
  id_card: string;
  result: string;
  description: string;
}

/** Names compare without spaces and with the middle dot of minority names in one form. */
function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, '').replace(/[·•．.]/g, '·');
  return norm(a) === norm(b);
}

/** `/identity/idcard/ocr`: the name and number given, checked against the card and the source. */
export async function* verifyCard(
  engine: CardEngine,
  source: VerificationSource,
  image: () => Promise<Buffer>,
  given: { name: string; id_card: string },
  signal: StopSignal,
): Flow<OcrAnswer> {
  const at = stageClock();
  const bytes = await image();
  yield at('fetched');
  const card = await engineStep(() => engine.read(bytes, signal));
  yield at('recognised');
  const number = given.id_card.toUpperCase();
  const answer = { ...cardData(card), id_card: number };
  const fault = cardFault(card);
  if (fault) return { ...answer, ...fault };
  if (card.fields.id_number !== number) return { ...answer, ...outcome('id_number_mismatch') };
  if (!sameName(card.fields.name, given.name)) return { ...answer, ...outcome('name_mismatch') };
  let reference: IdentityRecord | undefined;
  try {
    reference = await source.find(number);
  } catch {
    return { ...answer, ...outcome('source_unavailable') };
  }
  yield at('compared');
  if (!reference) return { ...answer, ...outcome('not_enrolled') };
  if (!sameName(reference.name, given.name)) return { ...answer, ...outcome('record_mismatch') };
  return { ...answer, ...outcome('success') };
}
