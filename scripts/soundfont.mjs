// Decompresses the General MIDI soundfont Debian ships as SF3 (Ogg Vorbis samples,
// musescore-general-soundfont-small) into one small SF2 of 16-bit samples per preset the band
// plays, under dist/soundfont, as `make build` does: melodic-P.sf2 for program P of the General
// MIDI bank, kit-P.sf2 for drum kit P. From a whole soundfont FluidSynth loads every preset its
// channels start on (the piano and the standard kit, 130 MB) besides the one a part plays; from
// that preset's own file a part starts in a tenth of the CPU and memory. spessasynth_core reads
// the SF3 and writes the SF2s; the samples are those Vorbis decodes, nothing else changes. The
// presets are those src/engines/audio/synth/general-midi.ts names, read with esbuild.
import { transformSync } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BasicSoundBank, SoundBankLoader } from 'spessasynth_core';

const [from, to] = process.argv.slice(2);
if (!from || !to) throw new Error('usage: node scripts/soundfont.mjs SOUNDFONT.sf3 OUT_DIR');

const table = readFileSync(new URL('../src/engines/audio/synth/general-midi.ts', import.meta.url), 'utf8');
const { code } = transformSync(table, { loader: 'ts', format: 'esm' });
const { playedPresets } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
const { melodic, kits } = playedPresets();

await BasicSoundBank.isSF3DecoderReady;
const bytes = readFileSync(from);
const bank = SoundBankLoader.fromArrayBuffer(
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
);
await bank.setSampleFormat({ format: 'pcm' });

const presetOf = (program, kit) =>
  bank.presets.find((preset) =>
    kit
      ? preset.isGMGSDrum && preset.program === program
      : !preset.isGMGSDrum && preset.bankMSB === 0 && preset.bankLSB === 0 && preset.program === program,
  ) ??
  (() => {
    throw new Error(`${from} has no ${kit ? 'kit' : 'program'} ${program}`);
  })();

// Written beside and renamed: an interrupted build never leaves half a soundfont behind.
const partial = `${to}.partial`;
rmSync(partial, { recursive: true, force: true });
mkdirSync(partial, { recursive: true });
for (const [programs, kit] of [
  [melodic, false],
  [kits, true],
]) {
  for (const program of programs) {
    const one = new BasicSoundBank();
    one.soundBankInfo = { ...bank.soundBankInfo };
    one.clonePreset(presetOf(program, kit));
    writeFileSync(
      join(partial, `${kit ? 'kit' : 'melodic'}-${program}.sf2`),
      Buffer.from(await one.writeSF2({})),
    );
  }
}
rmSync(to, { recursive: true, force: true });
renameSync(partial, to);
