/**
 * `POST /tune/personas`: a singer's voice learnt from one of the token's audios, reused by
 * `artist_consistency`. The engine's own songs know their voice exactly; otherwise the register
 * is measured from the vocal: a `/tune/vox` result (`vox_audio_id`), or the vocal separated
 * from the audio, within `vocal_start`..`vocal_end`.
 */
import { randomUUID } from 'node:crypto';
import { slice, type AudioPool, type Pcm } from '../../engines/audio/index.js';
import { hashOf } from '../../engines/random.js';
import { badRequest } from '../../errors.js';
import { fetchInput, type MediaSources } from '../../net/media.js';
import type { Call } from '../index.js';
import type { MusicLibrary, Persona, Song } from './library.js';
import { MAX_SONG_SECONDS } from '../../contract/tune-models.js';

const STEM_BYTES = 400 * 1024 * 1024;

export class PersonaMaker {
  constructor(
    private readonly library: MusicLibrary,
    private readonly engine: AudioPool,
    private readonly media: MediaSources,
  ) {}

  private async song(tokenId: string, field: string, id: string): Promise<Song> {
    const song = await this.library.song(tokenId, id);
    if (!song) throw badRequest([{ field, rule: 'names no audio of this token' }]);
    return song;
  }

  private async audioOf(song: Song, field: string): Promise<Pcm> {
    const files = await Promise.all(
      Object.values(song.sound.stems).map((url) => fetchInput(this.media, field, url, STEM_BYTES)),
    );
    return this.engine.runWith({ move: true }, 'readMix', files, MAX_SONG_SECONDS);
  }

  async create(call: Call): Promise<unknown> {
    const body = call.body;
    const tokenId = call.token.id;
    const song = await this.song(tokenId, 'audio_id', String(body.audio_id));
    const voxId = typeof body.vox_audio_id === 'string' ? body.vox_audio_id : null;
    const start = typeof body.vocal_start === 'number' ? body.vocal_start : 0;
    const end = typeof body.vocal_end === 'number' ? body.vocal_end : undefined;
    let voice = voxId ? undefined : song.sound.voice;
    if (!voice) {
      const source = voxId ? await this.song(tokenId, 'vox_audio_id', voxId) : song;
      if (voxId && source.sound.origin !== 'vocal') {
        throw badRequest([{ field: 'vox_audio_id', rule: 'must name a /tune/vox result' }]);
      }
      const audio = slice(await this.audioOf(source, voxId ? 'vox_audio_id' : 'audio_id'), start, end);
      const vocal = voxId ? audio : (await this.engine.runWith({ move: true }, 'separate', audio)).vocals;
      const learnt = await this.engine.runWith({ move: true }, 'learnVoice', vocal, hashOf(song.id));
      if (!learnt) {
        throw badRequest([
          {
            field: voxId ? 'vox_audio_id' : 'audio_id',
            rule: 'holds no singing voice to learn from in the window given',
          },
        ]);
      }
      voice = learnt;
    }
    const persona: Persona = {
      id: randomUUID(),
      name: String(body.name),
      description: typeof body.description === 'string' ? body.description : null,
      audioId: song.id,
      voxAudioId: voxId,
      voice,
      createdAt: Date.now(),
    };
    await this.library.savePersona(tokenId, persona);
    return {
      success: true,
      data: {
        persona_id: persona.id,
        name: persona.name,
        description: persona.description ?? '',
        audio_id: persona.audioId,
        ...(voxId ? { vox_audio_id: voxId } : {}),
        voice: { gender: voice.gender, register_hz: Math.round(voice.registerHz * 10) / 10 },
        created_at: new Date(persona.createdAt).toISOString(),
      },
    };
  }
}
