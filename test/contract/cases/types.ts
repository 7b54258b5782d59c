/**
 * Contract cases: bodies that break one rule each (with the field the answer must name), and
 * bodies that must pass. The unit tests run them through the validator; the HTTP tests send them
 * to the real server.
 */
export interface InvalidCase {
  path: string;
  /** What the body breaks, in words. */
  name: string;
  body: unknown;
  /** The field the 400 answer must name in `error.details[].field`. */
  field: string;
}

export interface ValidCase {
  path: string;
  name: string;
  body: Record<string, unknown>;
}
