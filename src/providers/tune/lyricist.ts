/**
 * Lyrics for `lyric_prompt`: written by a chat model when the server has chat channels, by the
 * engine's local lyric writer otherwise (and when the chat model fails or answers nothing
 * usable, so that a song is never lost to an upstream's bad minute).
 */
import { writeLyrics } from '../../engines/audio/index.js';
import type { ChatCapability } from '../chat/capability.js';

const INSTRUCTIONS =
  'Write song lyrics. Answer with the lyrics only: sections marked on their own lines as [Verse], ' +
  '[Chorus], [Bridge] or [Outro], short singable lines, at most 40 lines, no commentary.';

/** A lyric the engine can sing: it has at least two lines of words. */
function usable(text: string): boolean {
  return text.split('\n').filter((line) => /\p{L}/u.test(line) && !/^\s*\[/.test(line)).length >= 2;
}

function contentOf(completion: unknown): string {
  const choices = (completion as { choices?: { message?: { content?: unknown } }[] }).choices;
  const content = choices?.[0]?.message?.content;
  return typeof content === 'string' ? content.trim() : '';
}

export class Lyricist {
  constructor(private readonly chat?: { capability: ChatCapability; model: string }) {}

  /** Lyrics for the task of token `token` (whose request the chat channels serve). */
  async write(prompt: string, seed: number, token: string, signal: AbortSignal): Promise<string> {
    if (this.chat) {
      try {
        const completion = await this.chat.capability.complete(
          {
            model: this.chat.model,
            messages: [
              { role: 'system', content: INSTRUCTIONS },
              { role: 'user', content: prompt },
            ],
            max_tokens: 600,
            seed,
          },
          { token, signal },
        );
        const lyric = contentOf(completion);
        if (usable(lyric)) return lyric.slice(0, 3000);
      } catch (error) {
        if (signal.aborted) throw error;
      }
    }
    return writeLyrics(prompt, seed);
  }
}
