/**
 * Whose voice sings: a persona's (`persona_id`, required by the artist_consistency actions), or
 * one chosen by the seed within `vocal_gender`.
 */
import { voiceFor, type Voice } from '../../../engines/audio/index.js';
import { badRequest } from '../../../errors.js';
import type { Studio } from '../studio.js';

export async function voiceOf(studio: Studio): Promise<Voice> {
  const personaId = studio.text('persona_id');
  if (personaId) {
    const persona = await studio.library.persona(studio.job.tokenId, personaId);
    if (!persona) throw badRequest([{ field: 'persona_id', rule: 'names no persona of this token' }]);
    if (studio.input.action === 'artist_consistency_vox' && !persona.voxAudioId) {
      throw badRequest([
        {
          field: 'persona_id',
          rule: 'must name a persona learnt from a vocal extraction (created with vox_audio_id) when action is artist_consistency_vox',
        },
      ]);
    }
    return persona.voice;
  }
  const gender = studio.text('vocal_gender');
  return voiceFor(gender === 'm' || gender === 'f' ? gender : undefined, studio.seed);
}
