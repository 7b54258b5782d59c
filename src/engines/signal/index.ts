/**
 * Signal: the spectral tools shared by the audio engine (separation, key, pitch, tempo) and the
 * ID card checks (the moiré of a photographed screen).
 */
export { fft, hann } from './fft.js';
