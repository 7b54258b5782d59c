/**
 * Four stems from uploaded audio that came without any: the vocal by vocal extraction, then,
 * from the accompaniment, the drums as its percussive part, the bass as its harmonic part below
 * about 200 Hz, and everything else as the remainder, so the four always add up to the upload.
 */
import { type Pcm, frames, silence } from '../dsp/pcm.js';
import { harmonicPercussive, rampUp, separateVocals } from './vocals.js';
import { analyse, binHz, magnitude, synthesise } from '../dsp/stft.js';

export interface InstrumentStems {
  vocals: Pcm;
  drums: Pcm;
  bass: Pcm;
  other: Pcm;
}

/** How much of a bin at `hz` is bass range: all of it to 150 Hz, none above 260 Hz. */
function bassRange(hz: number): number {
  return 1 - rampUp(hz, 150, 260);
}

/** The four stems of `pcm`, each with its channel count; `vocals + drums + bass + other` is `pcm`. */
export function splitInstruments(pcm: Pcm): InstrumentStems {
  const { vocals, accompaniment } = separateVocals(pcm);
  const length = frames(pcm);
  if (length === 0) {
    const empty = () => silence(0, pcm.channels.length, pcm.rate);
    return { vocals, drums: empty(), bass: empty(), other: accompaniment };
  }
  const spectra = analyse(accompaniment.channels);
  const { bins, size } = spectra[0]!;
  // One pair of masks from the channels' mean magnitude keeps the stems' stereo image intact.
  const { harmonic, percussive } = harmonicPercussive(magnitude(spectra), bins);
  for (let i = 0; i < harmonic.length; i += 1) harmonic[i]! *= bassRange(binHz(i % bins, size, pcm.rate));
  const drums = synthesise(spectra, percussive);
  const bass = synthesise(spectra, harmonic);
  const other = accompaniment.channels.map((rest, c) => {
    const out = new Float32Array(length);
    for (let i = 0; i < length; i += 1) out[i] = rest[i]! - drums[c]![i]! - bass[c]![i]!;
    return out;
  });
  return {
    vocals,
    drums: { rate: pcm.rate, channels: drums },
    bass: { rate: pcm.rate, channels: bass },
    other: { rate: pcm.rate, channels: other },
  };
}
