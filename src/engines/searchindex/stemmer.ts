import type Database from 'better-sqlite3';
import { spaceCjk } from './cjk.js';
import { TOKENIZER } from './schema.js';

/** unicode61's token characters: letters, digits and private-use characters. */
const WORD = /[\p{L}\p{N}\p{Co}]+/gu;
/** Words remembered at most; beyond, the memory is started afresh. */
const WORDS_KEPT = 200_000;

/**
 * The index's own tokenizer, usable from JavaScript: text is cut where unicode61 cuts it (each
 * CJK character alone, as the index stores it), and each distinct word is stemmed once by
 * SQLite itself, through a scratch FTS5 table with the index's tokenizer, then remembered.
 * Counting a document's terms for feedback then costs a pass of a regular expression and one
 * map lookup per word, rather than an FTS5 insert and an fts5vocab row per word on every search.
 */
export class Stemmer {
  /** A word as written → its one term: nearly every word. */
  private readonly single = new Map<string, string>();
  /** Words unicode61 makes no term or several terms of, should any be. */
  private readonly other = new Map<string, readonly string[]>();
  private readonly put: Database.Statement<[number, string]>;
  private readonly read: Database.Statement<[], { id: number; term: string }>;
  private readonly clear: Database.Statement<[]>;

  constructor(private readonly db: Database.Database) {
    db.exec(`CREATE VIRTUAL TABLE temp.stems USING fts5(w, content = '', tokenize = '${TOKENIZER}')`);
    db.exec('CREATE VIRTUAL TABLE temp.stem_instances USING fts5vocab(temp, stems, instance)');
    this.put = db.prepare('INSERT INTO temp.stems (rowid, w) VALUES (?, ?)');
    this.read = db.prepare('SELECT doc AS id, term FROM temp.stem_instances ORDER BY doc, offset');
    // Contentless, so emptied at once rather than row by row (which re-reads every row).
    this.clear = db.prepare("INSERT INTO temp.stems (stems) VALUES ('delete-all')");
  }

  /**
   * Occurrences of each term, per text, or of the `only` terms when given. One map lookup per
   * word in the usual case; the new words of all the texts are stemmed at once.
   */
  count(texts: readonly string[], only?: ReadonlySet<string>): Map<string, number>[] {
    const counts = texts.map(() => new Map<string, number>());
    const add = (into: Map<string, number>, term: string) => {
      if (!only || only.has(term)) into.set(term, (into.get(term) ?? 0) + 1);
    };
    const pending: [Map<string, number>, string][] = [];
    texts.forEach((text, i) => {
      const into = counts[i]!;
      for (const word of spaceCjk(text).match(WORD) ?? []) {
        const term = this.single.get(word);
        if (term === undefined) pending.push([into, word]);
        else add(into, term);
      }
    });
    if (pending.length === 0) return counts;
    this.learn([...new Set(pending.map(([, word]) => word).filter((word) => !this.other.has(word)))]);
    for (const [into, word] of pending) {
      const term = this.single.get(word);
      if (term !== undefined) add(into, term);
      else for (const each of this.other.get(word) ?? []) add(into, each);
    }
    return counts;
  }

  /** The distinct terms of some text, as the index stores them. */
  terms(text: string): Set<string> {
    return new Set(this.count([text])[0]?.keys());
  }

  /** Stems new words in one scratch transaction. */
  private learn(fresh: readonly string[]): void {
    if (fresh.length === 0) return;
    if (this.single.size + fresh.length > WORDS_KEPT) {
      this.single.clear();
      this.other.clear();
    }
    this.db.transaction(() => {
      fresh.forEach((word, i) => this.put.run(i + 1, word));
      const terms = new Map<number, string[]>();
      for (const row of this.read.all()) {
        const list = terms.get(row.id);
        if (list) list.push(row.term);
        else terms.set(row.id, [row.term]);
      }
      this.clear.run();
      fresh.forEach((word, i) => {
        const list = terms.get(i + 1) ?? [];
        if (list.length === 1) this.single.set(word, list[0]!);
        else this.other.set(word, list);
      });
    })();
  }
}
