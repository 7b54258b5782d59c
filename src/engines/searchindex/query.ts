import { cjkTokens } from './cjk.js';
import { stopWordsFor } from './stopwords.js';

/**
 * User text turned into FTS5 clauses that cannot break the MATCH syntax: every clause is a
 * quoted string built only from letters and digits, so quotes, parentheses, AND/OR/NOT, `:` and
 * stray `*` are plain text. Supported: "a phrase" and prefix*.
 */
export interface Clause {
  /** Tokens matched next to each other (one token for a plain word). */
  tokens: string[];
  prefix: boolean;
}

const PART = /"([^"]*)"?|([\p{L}\p{N}]+)(\*)?/gu;
const WORD = /[\p{L}\p{N}]+/gu;

export function parseQuery(text: string, language?: string): Clause[] {
  const clauses: Clause[] = [];
  const stop: Clause[] = [];
  const stopWords = stopWordsFor(language);
  for (const match of text.toLowerCase().matchAll(PART)) {
    if (match[1] !== undefined) {
      const tokens = (match[1].match(WORD) ?? []).flatMap(cjkTokens);
      if (tokens.length > 0) clauses.push({ tokens, prefix: false });
    } else if (match[2] !== undefined) {
      const clause = { tokens: cjkTokens(match[2]), prefix: match[3] !== undefined };
      (!clause.prefix && stopWords.has(match[2]) ? stop : clauses).push(clause);
    }
  }
  // A query of stop words only ("the who") still searches for them.
  return clauses.length > 0 ? clauses : stop;
}

/** One clause as an FTS5 phrase; tokens hold no quotes, the escape is a second guard. */
export function clauseExpression(clause: Clause): string {
  const quoted = `"${clause.tokens.join(' ').replaceAll('"', '""')}"`;
  return clause.prefix ? `${quoted} *` : quoted;
}

/** All clauses, any of which may match (ranking rewards documents matching more). */
export function anyExpression(clauses: readonly Clause[]): string {
  return clauses.map(clauseExpression).join(' OR ');
}

/** Every clause within the title column: an entity named by the query. */
export function titleExpression(clauses: readonly Clause[]): string {
  return clauses.map((clause) => `title : ${clauseExpression(clause)}`).join(' AND ');
}
