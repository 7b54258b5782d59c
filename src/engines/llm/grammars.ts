/**
 * The grammars that hold answers to a JSON form. The generic JSON one is the same for every
 * request and built once; a schema's is built per request (a few milliseconds), since schemas
 * vary with every caller.
 */
import type { GbnfJsonSchema, Llama, LlamaGrammar } from 'node-llama-cpp';
import { unsupported } from './errors.js';

/**
 * node-llama-cpp's number rules admit an exponent of up to sixteen digits, signed: an `integer`
 * could be sampled as `5e-1` and a `number` as `1e999`, which parse to 0.5 and Infinity and so
 * break the schema the grammar was meant to hold. Integers are written without an exponent and
 * other numbers with one of at most two digits, which keeps every value finite.
 */
const NUMBER_RULES: ReadonlyArray<[RegExp, string]> = [
  [/^integer-number-rule ::= .*$/m, 'integer-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,15})'],
  [
    /^fractional-number-rule ::= .*$/m,
    'fractional-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,2})?',
  ],
];

export class Grammars {
  private json: Promise<LlamaGrammar> | undefined;

  constructor(private readonly llama: Llama) {}

  /** Any JSON object: `json_object`. */
  anyObject(): Promise<LlamaGrammar> {
    this.json ??= this.llama.getGrammarFor('json');
    return this.json;
  }

  /** JSON of `schema`; a schema node-llama-cpp cannot compile is the request's fault (`member`). */
  async forSchema(schema: GbnfJsonSchema, member: string): Promise<LlamaGrammar> {
    try {
      // The schema is only known at run time; node-llama-cpp's typing wants it as a literal type.
      const generated = await this.llama.createGrammarForJsonSchema(schema as Readonly<{ type: 'string' }>);
      const grammar = NUMBER_RULES.reduce(
        (text, [rule, exact]) => text.replace(rule, exact),
        generated.grammar,
      );
      return await this.llama.createGrammar({
        grammar,
        stopGenerationTriggers: generated.stopGenerationTriggers,
        trimWhitespaceSuffix: generated.trimWhitespaceSuffix,
      });
    } catch (error) {
      throw unsupported(member, `no grammar could be built from this schema: ${(error as Error).message}`);
    }
  }
}
