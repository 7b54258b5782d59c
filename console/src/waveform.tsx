/** An audio player with the waveform of its sound, drawn from the decoded file. */
import { useEffect, useRef, useState } from 'preact/hooks';

const BARS = 160;

async function peaksOf(url: string): Promise<number[]> {
  const bytes = await (await fetch(url)).arrayBuffer();
  // An offline context decodes without an audio device and without asking to play.
  const audio = await new OfflineAudioContext(1, 1, 44100).decodeAudioData(bytes);
  const samples = audio.getChannelData(0);
  const step = Math.max(1, Math.floor(samples.length / BARS));
  const peaks: number[] = [];
  for (let bar = 0; bar < BARS; bar++) {
    let peak = 0;
    for (let i = bar * step; i < Math.min(samples.length, (bar + 1) * step); i++)
      peak = Math.max(peak, Math.abs(samples[i] as number));
    peaks.push(peak);
  }
  return peaks;
}

export function AudioWithWaveform({ url, title }: { url: string; title: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failure, setFailure] = useState<string>();
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    let live = true;
    peaksOf(url).then(
      (peaks) => {
        const element = canvas.current;
        const context = element?.getContext('2d');
        if (!live || !element || !context) return;
        const { width, height } = element;
        context.clearRect(0, 0, width, height);
        context.fillStyle = getComputedStyle(element).color;
        const top = Math.max(...peaks, 1e-6);
        const bar = width / peaks.length;
        peaks.forEach((peak, i) => {
          const h = Math.max(1, (peak / top) * (height - 4));
          context.fillRect(i * bar, (height - h) / 2, Math.max(1, bar - 1), h);
        });
        setDrawn(true);
      },
      (error: unknown) => live && setFailure(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, [url]);
  return (
    <figure class="audio">
      <figcaption>{title}</figcaption>
      <canvas
        ref={canvas}
        class="waveform"
        width={640}
        height={80}
        role="img"
        aria-label={`Waveform of ${title}`}
        data-drawn={drawn ? 'yes' : 'no'}
      />
      {failure && <p class="error">The waveform could not be drawn: {failure}</p>}
      <audio controls preload="metadata" src={url} aria-label={title} />
    </figure>
  );
}
