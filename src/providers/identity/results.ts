/**
 * The service codes of the identity operations' `result`. A request that reached the engine is
 * answered 200 with one of these; only what the client can fix in the request is a 400. The list
 * is documented in docs/identity.md and kept stable: clients branch on the code, people read
 * `description`.
 */
export const RESULTS = {
  success: 'the card was read and verified',
  card_not_found: 'no ID card front was found in the image',
  fields_unreadable: 'the card was found but its fields could not be read',
  ocr_warning: 'a warning asked for in config fired',
  invalid_id_number: 'the ID number on the card breaks the GB 11643 rules',
  card_inconsistent: 'the printed sex or date of birth disagrees with the ID number',
  name_mismatch: 'the name given differs from the name on the card',
  id_number_mismatch: 'the ID number given differs from the number on the card',
  not_enrolled: 'the verification source holds no record for this ID number',
  record_mismatch: 'the verification source holds another name for this ID number',
  no_reference_portrait: 'the verification source holds no portrait for this identity',
  source_unavailable: 'the verification source could not be reached',
} as const;

export type ResultCode = keyof typeof RESULTS;

export interface Outcome {
  result: ResultCode;
  description: string;
}

/** The outcome, its description saying the detail when there is one. */
export function outcome(result: ResultCode, detail?: string): Outcome {
  return { result, description: detail ? `${RESULTS[result]}: ${detail}` : RESULTS[result] };
}
