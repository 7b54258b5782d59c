/**
 * What the music engine keeps per token: every audio it produced or received (so that later
 * actions can work on it by `audio_id`), and personas. A token only ever finds its own.
 */
import type { Db } from '../../store/database.js';
import type { SongPlan, Voice } from '../../engines/audio/index.js';

/** The engine's view of an audio. */
export interface Sound {
  /** How it came to be: made by the engine, uploaded, or cut out of another audio. */
  origin: 'engine' | 'upload' | 'stem' | 'vocal';
  /** Lossless stems (URLs of this service's files) that sum to the audio; `mix` alone when unknown. */
  stems: Record<string, string>;
  /** The plan it was rendered from, when the engine made it. */
  plan?: SongPlan;
  bpm: number;
  /** Seconds of the first beat: the beat grid that edits keep to. */
  firstBeat: number;
  root: number;
  mode: 'major' | 'minor';
  voice?: Voice;
  /** The gain the engine levelled it with: parts rendered for it later take the same. */
  level?: number;
}

/** The Music item as given to the client. */
export type MusicItem = Record<string, unknown> & { id: string; duration: number };

export interface Song {
  id: string;
  item: MusicItem;
  sound: Sound;
  parentId: string | null;
  continueAt: number | null;
  duration: number;
}

export interface Persona {
  id: string;
  name: string;
  description: string | null;
  audioId: string;
  voxAudioId: string | null;
  voice: Voice;
  createdAt: number;
}

export class MusicLibrary {
  constructor(private readonly db: Db) {}

  async saveSong(tokenId: string, taskId: string, song: Omit<Song, 'duration'>): Promise<void> {
    await this.db
      .insertInto('songs')
      .values({
        id: song.id,
        token_id: tokenId,
        task_id: taskId,
        parent_id: song.parentId,
        continue_at: song.continueAt,
        duration: song.item.duration,
        item: JSON.stringify(song.item),
        sound: JSON.stringify(song.sound),
        created_at: Date.now(),
      })
      // A task that runs again after its worker died saves the same ids again.
      .onConflict((c) => c.column('id').doNothing())
      .execute();
  }

  async song(tokenId: string, id: string): Promise<Song | undefined> {
    const row = await this.db
      .selectFrom('songs')
      .selectAll()
      .where('id', '=', id)
      .where('token_id', '=', tokenId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      item: JSON.parse(row.item) as MusicItem,
      sound: JSON.parse(row.sound) as Sound,
      parentId: row.parent_id,
      continueAt: row.continue_at === null ? null : Number(row.continue_at),
      duration: Number(row.duration),
    };
  }

  async savePersona(tokenId: string, persona: Persona): Promise<void> {
    await this.db
      .insertInto('personas')
      .values({
        id: persona.id,
        token_id: tokenId,
        name: persona.name,
        description: persona.description,
        audio_id: persona.audioId,
        vox_audio_id: persona.voxAudioId,
        voice: JSON.stringify(persona.voice),
        created_at: persona.createdAt,
      })
      .execute();
  }

  async persona(tokenId: string, id: string): Promise<Persona | undefined> {
    const row = await this.db
      .selectFrom('personas')
      .selectAll()
      .where('id', '=', id)
      .where('token_id', '=', tokenId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      audioId: row.audio_id,
      voxAudioId: row.vox_audio_id,
      voice: JSON.parse(row.voice) as Voice,
      createdAt: Number(row.created_at),
    };
  }
}
