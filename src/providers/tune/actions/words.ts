/**
 * The words of a generation (title, style, lyrics, prompt) from a request: custom mode takes
 * them as given (lyrics written for `lyric_prompt`), description mode derives them from
 * `prompt`. The song's musical reading of them is the engine's (compose/plan.ts).
 */
import { styleFromPrompt, titleFrom } from '../../../engines/audio/index.js';
import type { Lyricist } from '../lyricist.js';
import type { Studio, Words } from '../studio.js';

export async function wordsOf(studio: Studio, lyricist: Lyricist, fallbackTitle = ''): Promise<Words> {
  const instrumental = studio.input.instrumental === true;
  const prompt = studio.text('prompt');
  const style = studio.text('style') || (prompt ? styleFromPrompt(prompt) : '');
  const title =
    studio.text('title') || fallbackTitle || titleFrom(prompt || style || studio.text('lyric'), studio.seed);
  let lyric = instrumental ? '' : studio.text('lyric');
  if (!instrumental && !lyric) {
    const asked = (studio.input.lyric_prompt as { prompt?: string } | undefined)?.prompt;
    // Description mode: the description is also what the lyrics are about.
    const about = asked ?? (studio.input.custom === true ? '' : prompt);
    if (about)
      lyric = await studio.step('write', () =>
        lyricist.write(about, studio.seed, studio.job.tokenId, studio.job.signal),
      );
  }
  return { title, style, lyric, prompt };
}
