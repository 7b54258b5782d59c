/**
 * The sections of the configuration that tune the local engines: the search index's file, and
 * for music, video and ID cards their worker threads, with the model that writes lyrics and the
 * key and images of the ID card registry.
 */
import { Type, Closed } from '../contract/schema.js';

/** The local search index. */
export const SearchSection = Closed(
  {
    index_path: Type.Optional(
      Type.String({
        minLength: 1,
        'x-default': '`{data_dir}/search-index.db`',
        description: 'the local search index file',
      }),
    ),
    remember_queries: Type.Boolean({
      default: true,
      description: "keep each token's past queries in the index, for its related searches",
    }),
    workers: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 64,
        'x-default': 'one per core',
        description: 'threads searching the local index at a time',
      }),
    ),
    semantic_reranking: Type.Boolean({
      default: true,
      description:
        'reorder the first results of a search by meaning, where their documents have embeddings (the model loads on the first such search)',
    }),
    embed_up_to: Type.Integer({
      minimum: 0,
      default: 10_000,
      description:
        '`switchyard search index` embeds the documents of an index holding at most this many (60 ms or more a document on 2 cores); a larger index is searched without embeddings',
    }),
    embed_candidates: Type.Integer({
      minimum: 0,
      maximum: 100,
      default: 0,
      description:
        'of the first results without an embedding, how many a search embeds (kept in memory): each costs tens of milliseconds the first time',
    }),
  },
  { default: {}, description: 'the local search index (search.md)' },
);

/** The local music engine. */
export const MusicSection = Closed(
  {
    lyrics_model: Type.Optional(
      Type.String({
        minLength: 1,
        'x-default': 'the first model a chat channel names',
        description:
          'chat model that writes lyrics for `lyric_prompt` and description mode; the local lyric writer when the server has no chat channels',
      }),
    ),
    workers: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 64,
        'x-default': 'one per core',
        description: 'threads composing, separating and mastering audio at a time',
      }),
    ),
  },
  { default: {}, description: 'the local music engine (music.md)' },
);

/** The local video engine. */
export const VideoSection = Closed(
  {
    workers: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 64,
        'x-default': 'one per core',
        description: 'threads rendering videos at a time, shared by the three video families',
      }),
    ),
  },
  { default: {}, description: 'the local video engine (video.md)' },
);

/** The local ID card engine and its registry. */
export const IdentitySection = Closed(
  {
    key: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "base64 of 32 bytes: the identity key that seals the ID registry and the tokens' field keys; set the same on every node",
      }),
    ),
    key_file: Type.Optional(
      Type.String({
        minLength: 1,
        'x-default': '`{data_dir}/identity.key`',
        description:
          'where the identity key is read from when `identity.key` is absent; created on first use (mode 0600)',
      }),
    ),
    keep_images: Type.Boolean({
      default: false,
      description:
        'keep each ID card image in the file store; by default an image lives only for its request',
    }),
    workers: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 64,
        'x-default': 'one per core',
        description: 'threads reading ID cards at a time',
      }),
    ),
  },
  { default: {}, description: 'ID cards: the local engine and its registry (identity.md)' },
);
