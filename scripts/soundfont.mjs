// Decompresses the General MIDI soundfont Debian ships as SF3 (Ogg Vorbis samples,
// musescore-general-soundfont-small) into an SF2 of 16-bit samples under dist/soundfont, as
// `make build` does: FluidSynth then reads from disk only the samples a part plays, where from
// the SF3 it decoded a preset's samples every time it started (seconds a part). spessasynth_core
// reads the SF3 and writes the SF2; the samples are those Vorbis decodes, nothing else changes.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { BasicSoundBank, SoundBankLoader } from 'spessasynth_core';

const [from, to] = process.argv.slice(2);
if (!from || !to) throw new Error('usage: node scripts/soundfont.mjs SOUNDFONT.sf3 OUT.sf2');
await BasicSoundBank.isSF3DecoderReady;
const bytes = readFileSync(from);
const bank = SoundBankLoader.fromArrayBuffer(
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
);
await bank.setSampleFormat({ format: 'pcm' });
mkdirSync(dirname(to), { recursive: true });
// Written beside and renamed: an interrupted build never leaves half a soundfont behind.
writeFileSync(`${to}.partial`, Buffer.from(await bank.writeSF2({})));
renameSync(`${to}.partial`, to);
