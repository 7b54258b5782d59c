/**
 * The least a sung song can be, for tests of plumbing (envelopes, callbacks, progress, relays)
 * that check how a song travels, not how it sounds. One sung line that opens the song, so that no
 * intro of its own is added: five bars with the ending. At the fastest tempo the engine plays
 * (200 bpm) that is 7.5 s, where the short lyric at 150 bpm made 12.7 s: a song's render, stems,
 * music video and vocal extraction grow with its length. Punk's band is guitar, bass, organ and
 * drums, without the piano whose samples take the longest to load (about 1 CPU-s a song less
 * than rock, 6 CPU-s for both takes where the short lyric's rock song took 12).
 */
export const ONE_LINE_LYRIC = '[Intro]\nHold the light';

export const QUICK_STYLE = 'punk, 200 bpm';
