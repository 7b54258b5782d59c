/**
 * Builds, at test time, a tiny but valid GGUF model that llama.cpp loads and runs: the `llama`
 * architecture with two small layers, F32 weights from a seeded generator, a SentencePiece-style
 * vocabulary (special tokens, the 256 byte-fallback tokens, printable ASCII, a few merged pieces)
 * and a ChatML chat template. It answers gibberish, fast: tests of the engine need a real model,
 * not a good one, and nothing may be downloaded.
 *
 * Layout (GGUF v3, little-endian): header, metadata key/values, tensor infos, padding to the
 * alignment, tensor data (each tensor's offset a multiple of the alignment).
 *
 * One twist keeps grammar-constrained answers short: every token embedding carries a large
 * constant in dimension 0, so after the final RMS norm that dimension is about the same at every
 * position, and the output matrix's column 0 acts as a per-token prior. Closing punctuation
 * (`}` `]` `"` `,`) is favoured and whitespace disfavoured, so a JSON grammar closes its object
 * in a few tokens, and generation ends where the grammar lets it (the end-of-generation token, or
 * the newlines node-llama-cpp's schema grammars end with). The end-of-generation token itself is
 * not favoured, so free text is gibberish that does not end by itself: a `max_tokens` cut is
 * reliable.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Random } from './random.js';

const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian uint32
const GGUF_VERSION = 3;
const ALIGNMENT = 32;

/** GGUF metadata value types. */
const enum ValueType {
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

/** ggml tensor type of plain 32-bit floats. */
const GGML_TYPE_F32 = 0;

/** SentencePiece token types as llama.cpp reads them. */
const enum TokenType {
  NORMAL = 1,
  UNKNOWN = 2,
  CONTROL = 3,
  BYTE = 6,
}

type Value =
  | { type: ValueType.UINT32 | ValueType.INT32 | ValueType.FLOAT32; value: number }
  | { type: ValueType.BOOL; value: boolean }
  | { type: ValueType.STRING; value: string }
  | { type: ValueType.ARRAY; of: ValueType.STRING; value: readonly string[] }
  | { type: ValueType.ARRAY; of: ValueType.FLOAT32 | ValueType.INT32; value: readonly number[] };

interface Tensor {
  name: string;
  /** ggml order: the first dimension varies fastest (for a matrix, the row length). */
  dims: number[];
  data: Float32Array;
}

/** Appends little-endian values to a growing list of buffers. */
class Writer {
  private readonly parts: Buffer[] = [];
  length = 0;

  private push(buffer: Buffer): void {
    this.parts.push(buffer);
    this.length += buffer.length;
  }

  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }

  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }

  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }

  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }

  /** A GGUF string: its byte length as uint64, then UTF-8 bytes without a terminator. */
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }

  bytes(value: Uint8Array): void {
    this.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }

  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    if (pad > 0) this.push(Buffer.alloc(pad));
  }

  value(v: Value): void {
    this.u32(v.type);
    switch (v.type) {
      case ValueType.UINT32:
        return this.u32(v.value);
      case ValueType.INT32:
        return this.i32(v.value);
      case ValueType.FLOAT32:
        return this.f32(v.value);
      case ValueType.BOOL:
        return this.push(Buffer.from([v.value ? 1 : 0]));
      case ValueType.STRING:
        return this.string(v.value);
      case ValueType.ARRAY:
        this.u32(v.of);
        this.u64(v.value.length);
        for (const item of v.value) {
          if (v.of === ValueType.STRING) this.string(item as string);
          else if (v.of === ValueType.FLOAT32) this.f32(item as number);
          else this.i32(item as number);
        }
    }
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** ChatML, the template node-llama-cpp recognises as its ChatML wrapper. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const SPACE = '\u2581'; // SentencePiece's visible space

/**
 * Priors of the characters that close JSON values, highest first: inside a string the closing
 * quote beats every character, after a value the end of its object or array beats a comma.
 */
const CLOSERS: Record<string, number> = { '"': 8, '}': 7, ']': 7, ',': 5 };

interface Vocabulary {
  tokens: string[];
  scores: number[];
  types: number[];
  /** The prior each token gets through the output matrix (see the file comment). */
  priors: number[];
}

function vocabulary(): Vocabulary {
  const v: Vocabulary = { tokens: [], scores: [], types: [], priors: [] };
  const add = (token: string, type: TokenType, score: number, prior: number) => {
    v.tokens.push(token);
    v.types.push(type);
    v.scores.push(score);
    v.priors.push(prior);
  };
  add('<unk>', TokenType.UNKNOWN, 0, -20);
  add('<s>', TokenType.CONTROL, 0, -20);
  add('</s>', TokenType.CONTROL, 0, 0);
  add('<|im_start|>', TokenType.CONTROL, 0, -20);
  add('<|im_end|>', TokenType.CONTROL, 0, 0);
  // Byte fallback: any text tokenizes, whatever the vocabulary lacks. Rarely generated, so that
  // free text stays valid UTF-8.
  for (let byte = 0; byte < 256; byte += 1) {
    const prior = byte === 0x0a || byte === 0x09 ? -12 : -6;
    add(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`, TokenType.BYTE, 0, prior);
  }
  add(SPACE, TokenType.NORMAL, -1, -12);
  for (let code = 0x21; code <= 0x7e; code += 1) {
    const char = String.fromCharCode(code);
    add(char, TokenType.NORMAL, -1, CLOSERS[char] ?? 0);
  }
  // A few merged pieces, so that tokenizing is more than one token per character.
  const pieces = ['he', 'll', 'lo', 'el', 'th', 'in', 'er', `${SPACE}t`, `${SPACE}th`, `${SPACE}the`];
  pieces.push(`${SPACE}a`, `${SPACE}h`, `${SPACE}he`, `${SPACE}hel`, `${SPACE}hell`, `${SPACE}hello`);
  for (const [i, piece] of pieces.entries()) add(piece, TokenType.NORMAL, -0.5 + i * 0.01, 0);
  return v;
}

export interface TinyModelShape {
  layers: number;
  embedding: number;
  heads: number;
  kvHeads: number;
  feedForward: number;
  contextLength: number;
}

export const TINY_SHAPE: TinyModelShape = {
  layers: 2,
  embedding: 64,
  heads: 4,
  kvHeads: 2,
  feedForward: 128,
  contextLength: 4096,
};

function tensors(shape: TinyModelShape, vocab: Vocabulary, random: Random): Tensor[] {
  const n = vocab.tokens.length;
  const e = shape.embedding;
  const headDim = e / shape.heads;
  const kv = headDim * shape.kvHeads;
  const uniform = (count: number, scale: number) =>
    Float32Array.from({ length: count }, () => (random.next() * 2 - 1) * scale);
  const ones = (count: number) => new Float32Array(count).fill(1);
  const matrix = (name: string, rowLength: number, rows: number, scale: number): Tensor => ({
    name,
    dims: [rowLength, rows],
    data: uniform(rowLength * rows, scale),
  });

  const embeddings = uniform(e * n, 0.5);
  const output = uniform(e * n, 0.5);
  // Row t of each matrix is token t; dimension 0 carries the constant and the prior.
  const CONSTANT = 4;
  for (let t = 0; t < n; t += 1) {
    embeddings[t * e] = CONSTANT;
    output[t * e] = (vocab.priors[t] ?? 0) / Math.sqrt(e);
  }

  const out: Tensor[] = [
    { name: 'token_embd.weight', dims: [e, n], data: embeddings },
    { name: 'output_norm.weight', dims: [e], data: ones(e) },
    { name: 'output.weight', dims: [e, n], data: output },
  ];
  // Small layer weights: the layers stir the residual stream without drowning dimension 0.
  for (let i = 0; i < shape.layers; i += 1) {
    const blk = `blk.${i}`;
    out.push(
      { name: `${blk}.attn_norm.weight`, dims: [e], data: ones(e) },
      matrix(`${blk}.attn_q.weight`, e, e, 0.1),
      matrix(`${blk}.attn_k.weight`, e, kv, 0.1),
      matrix(`${blk}.attn_v.weight`, e, kv, 0.1),
      matrix(`${blk}.attn_output.weight`, e, e, 0.05),
      { name: `${blk}.ffn_norm.weight`, dims: [e], data: ones(e) },
      matrix(`${blk}.ffn_gate.weight`, e, shape.feedForward, 0.1),
      matrix(`${blk}.ffn_up.weight`, e, shape.feedForward, 0.1),
      matrix(`${blk}.ffn_down.weight`, shape.feedForward, e, 0.05),
    );
  }
  return out;
}

function metadata(shape: TinyModelShape, vocab: Vocabulary, name: string): [string, Value][] {
  const u32 = (value: number): Value => ({ type: ValueType.UINT32, value });
  const str = (value: string): Value => ({ type: ValueType.STRING, value });
  return [
    ['general.architecture', str('llama')],
    ['general.name', str(name)],
    ['general.alignment', u32(ALIGNMENT)],
    ['llama.context_length', u32(shape.contextLength)],
    ['llama.embedding_length', u32(shape.embedding)],
    ['llama.block_count', u32(shape.layers)],
    ['llama.feed_forward_length', u32(shape.feedForward)],
    ['llama.attention.head_count', u32(shape.heads)],
    ['llama.attention.head_count_kv', u32(shape.kvHeads)],
    ['llama.rope.dimension_count', u32(shape.embedding / shape.heads)],
    ['llama.attention.layer_norm_rms_epsilon', { type: ValueType.FLOAT32, value: 1e-5 }],
    ['llama.vocab_size', u32(vocab.tokens.length)],
    ['tokenizer.ggml.model', str('llama')],
    ['tokenizer.ggml.tokens', { type: ValueType.ARRAY, of: ValueType.STRING, value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: ValueType.ARRAY, of: ValueType.FLOAT32, value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: ValueType.ARRAY, of: ValueType.INT32, value: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', u32(0)],
    ['tokenizer.ggml.bos_token_id', u32(1)],
    ['tokenizer.ggml.eos_token_id', u32(2)],
    ['tokenizer.ggml.add_bos_token', { type: ValueType.BOOL, value: true }],
    ['tokenizer.ggml.add_eos_token', { type: ValueType.BOOL, value: false }],
    ['tokenizer.chat_template', str(CHATML_TEMPLATE)],
  ];
}

/** The bytes of a tiny model; the same seed gives the same bytes. */
export function tinyGguf(seed = 1, shape: TinyModelShape = TINY_SHAPE): Buffer {
  const vocab = vocabulary();
  const all = tensors(shape, vocab, new Random(seed));
  const kvs = metadata(shape, vocab, `switchyard-tiny-${seed}`);

  const w = new Writer();
  w.u32(GGUF_MAGIC);
  w.u32(GGUF_VERSION);
  w.u64(all.length);
  w.u64(kvs.length);
  for (const [key, value] of kvs) {
    w.string(key);
    w.value(value);
  }
  let offset = 0;
  for (const tensor of all) {
    w.string(tensor.name);
    w.u32(tensor.dims.length);
    for (const dim of tensor.dims) w.u64(dim);
    w.u32(GGML_TYPE_F32);
    w.u64(offset);
    offset += Math.ceil(tensor.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  for (const tensor of all) {
    w.padTo(ALIGNMENT);
    w.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
  }
  return w.toBuffer();
}

/** Writes a tiny model into `dir` and returns its path. */
export async function writeTinyGguf(
  dir: string,
  seed = 1,
  shape: TinyModelShape = TINY_SHAPE,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `tiny-${seed}.gguf`);
  await writeFile(path, tinyGguf(seed, shape));
  return path;
}
