// One build's speed, for bench/scene-art.mjs: `qr` the render times of QR art for 40 prompts of
// the benchmark, `video` those of N 5 s 720p videos (render and encode), each as wall-clock and
// CPU time (this process's and, for video, the ffmpeg it waited for): on a loaded machine the
// CPU time is what one core spends. Prints JSON: { wall: [...], cpu: [...] } in ms or s.
// Usage: node bench/scene-art-speed.mjs DIST qr|video [N]
import { readFileSync } from 'node:fs';

const [dist, what, n = '3'] = process.argv.slice(2);
const prompts = readFileSync(new URL('./prompts/scene-prompts.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'));
const TICKS = 100;
/** Seconds of CPU this process and its waited-for children have used (/proc/self/stat 14–17). */
const cpu = () => {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICKS;
};
const out = { wall: [], cpu: [] };
const timed = async (unit, work) => {
  const [t, c] = [process.hrtime.bigint(), cpu()];
  await work();
  out.wall.push(Number(process.hrtime.bigint() - t) / (unit === 'ms' ? 1e6 : 1e9));
  out.cpu.push((cpu() - c) * (unit === 'ms' ? 1000 : 1));
};
if (what === 'qr') {
  const { renderQrArt } = await import(`${dist}/engines/qr/index.js`);
  const request = (prompt, i) => ({
    content: `https://switchyard.example/p/${i}`,
    type: 'link',
    ecl: 'H',
    seed: i,
    aspectRatio: '1:1',
    paddingLevel: 5,
    prompt,
  });
  for (let i = 0; i < 5; i += 1) renderQrArt(request(prompts[i], i));
  // CPU ticks are 10 ms: each sample is a batch of 5 renders, reported per render.
  for (let i = 0; i < 40; i += 1) {
    await timed('ms', () => {
      for (let k = 0; k < 5; k += 1) renderQrArt(request(prompts[(i * 5 + k) % prompts.length], i));
    });
    out.wall[i] /= 5;
    out.cpu[i] /= 5;
  }
} else {
  const { renderVideo } = await import(`${dist}/engines/video/index.js`);
  const spec = (prompt, frames, width, height) => ({
    seed: 3,
    prompt,
    width,
    height,
    fps: 24,
    frames,
    quality: 'std',
    camera: { kind: 'simple', config: { zoom: 0.5 } },
  });
  await renderVideo(spec('a lighthouse at dusk', 12, 320, 180));
  for (let i = 0; i < Number(n); i += 1)
    await timed('s', () => renderVideo(spec(prompts[(i * 37) % prompts.length], 120, 1280, 720)));
}
console.log(JSON.stringify(out));
