/**
 * The grammars that hold answers to a JSON form. The generic JSON one is the same for every
 * request and built once; a schema's is built per request (a few milliseconds), since schemas
 * vary with every caller.
 */
import type { GbnfJsonSchema, Llama, LlamaGrammar } from 'node-llama-cpp';
import { unsupported } from './errors.js';

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
      return await this.llama.createGrammarForJsonSchema(schema as Readonly<{ type: 'string' }>);
    } catch (error) {
      throw unsupported(member, `no grammar could be built from this schema: ${(error as Error).message}`);
    }
  }
}
