// Prompts to pictures, over the 200 prompts of bench/prompts/scene-prompts.txt: (1) the share of
// each prompt's nouns the video scene plan draws (as the scene's own forms or as things from the
// artwork library), apart from those that only set the hour, the weather or the look, and the
// same apart over the 100 held-out prompts of bench/prompts/scene-prompts-heldout.txt and the 100
// each of scene-prompts-heldout-2.txt and -3.txt, written blind; (2) QR
// art for every prompt (ecl L, M, Q, H in turn; 1:1; a different link each), and for each of the
// nine materials its word before 24 of them, read back by jsQR, ZXing (WebAssembly) and
// zbarimg; (3) speed in the same run as a build of another commit
// (bench/baseline.sh): QR art render time per prompt, and 5 s of 720p video (render and encode)
// for a few prompts, each build in its own process pinned to one core, timed in CPU seconds
// (its own and ffmpeg's) as well as wall-clock, which a busy machine stretches.
// Usage: npm run build && bash bench/baseline.sh eb64e14 /tmp/baseline
//        npx tsx bench/scene-art.mjs [--baseline /tmp/baseline/dist] [--videos 3] [--nouns-only]
// --nouns-only prints (1) and stops, saving nothing.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { decodeWithJsqr, decodeWithZbar, decodeWithZxing } from '../test/support/qr-decoders.ts';
import { planScene } from '../dist/engines/video/scene.js';
import { isThing, singularsOf } from '../dist/engines/artwork/index.js';
import { renderQrArt } from '../dist/engines/qr/index.js';
import { MATERIAL_WORDS } from '../dist/engines/qr/materials.js';
import { machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    videos: { type: 'string', default: '3' },
    'nouns-only': { type: 'boolean', default: false },
  },
});
/** A prompt file's prompts, each with the block (`## name`) it stands in. */
const promptsOf = (file) => {
  const out = [];
  let block = '';
  for (const line of readFileSync(new URL(`./prompts/${file}`, import.meta.url), 'utf8').split('\n')) {
    if (line.startsWith('## ')) block = line.slice(3).trim();
    else if (line.trim() && !line.startsWith('#')) out.push({ prompt: line.trim(), block });
  }
  return out;
};
const prompts = promptsOf('scene-prompts.txt');
const heldOut = promptsOf('scene-prompts-heldout.txt');
const heldOut2 = promptsOf('scene-prompts-heldout-2.txt');
const heldOut3 = promptsOf('scene-prompts-heldout-3.txt');

// (1) Nouns in the scene plan, block by block and over all, with the nouns nothing drew. An
// unknown noun none of whose likeliest WordNet senses is a thing (a time, an act, a quality:
// "hour", "year", "slam dunk") is counted apart as `not_things`, like the words that only set
// the hour or the weather; `drawn_share_pct` is of the rest, `all_nouns_pct` counts them too.
const isThingNoun = (written) => singularsOf(written.replace(/ /g, '-')).some(isThing) || isThing(written);
const share = (t) => +((100 * t.drawn) / Math.max(1, t.drawn + t.unknown)).toFixed(1);
const shareOfAll = (t) => +((100 * t.drawn) / Math.max(1, t.drawn + t.unknown + t.not_things)).toFixed(1);
function coverageOf(list) {
  const tally = {};
  const unknown = new Map();
  for (const { prompt, block } of list) {
    const plan = planScene({ seed: 1, prompt }, { width: 1280, height: 720 });
    const t = (tally[block] ??= { prompts: 0, drawn: 0, understood: 0, unknown: 0, not_things: 0 });
    t.prompts += 1;
    t.drawn += plan.nouns.drawn.length;
    t.understood += plan.nouns.understood.length;
    for (const word of plan.nouns.unknown) {
      if (isThingNoun(word)) t.unknown += 1;
      else t.not_things += 1;
      unknown.set(word, (unknown.get(word) ?? 0) + 1);
    }
  }
  const all = Object.values(tally).reduce(
    (a, t) => ({
      prompts: a.prompts + t.prompts,
      drawn: a.drawn + t.drawn,
      understood: a.understood + t.understood,
      unknown: a.unknown + t.unknown,
      not_things: a.not_things + t.not_things,
    }),
    { prompts: 0, drawn: 0, understood: 0, unknown: 0, not_things: 0 },
  );
  const rows =
    Object.keys(tally).length > 1 ? [...Object.entries(tally), ['all', all]] : Object.entries(tally);
  return {
    rows: rows.map(([name, t]) => ({
      set: name,
      ...t,
      drawn_share_pct: share(t),
      all_nouns_pct: shareOfAll(t),
    })),
    unknown,
  };
}
const listed = (unknown) =>
  [...unknown]
    .sort((a, b) => b[1] - a[1])
    .map(([w, n]) => `${w}×${n}`)
    .join(' ');
const { rows: coverage, unknown } = coverageOf(prompts);
const { rows: heldOutCoverage, unknown: heldOutUnknown } = coverageOf(heldOut);
const { rows: heldOut2Coverage, unknown: heldOut2Unknown } = coverageOf(heldOut2);
const { rows: heldOut3Coverage, unknown: heldOut3Unknown } = coverageOf(heldOut3);
console.table([...coverage, ...heldOutCoverage, ...heldOut2Coverage, ...heldOut3Coverage]);
console.log('unknown nouns:', listed(unknown));
console.log('unknown nouns, held out:', listed(heldOutUnknown));
console.log('unknown nouns, held out 2:', listed(heldOut2Unknown));
console.log('unknown nouns, held out 3:', listed(heldOut3Unknown));
if (values['nouns-only']) process.exit(0);

// (2) QR art decoded by three decoders, and its render time.
const ECLS = ['L', 'M', 'Q', 'H'];
const request = (prompt, i) => ({
  content: `https://switchyard.example/p/${i}`,
  type: 'link',
  ecl: ECLS[i % ECLS.length],
  seed: 100 + i,
  aspectRatio: '1:1',
  paddingLevel: 5,
  prompt,
});
renderQrArt(request('warm up a lighthouse', 0));
const decoded = { jsqr: 0, zxing: 0, zbar: 0, all_three: 0 };
const failures = [];
const times = [];
for (const [i, { prompt }] of prompts.entries()) {
  const t = process.hrtime.bigint();
  const art = renderQrArt(request(prompt, i));
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
  const reads = [decodeWithJsqr(art.png), await decodeWithZxing(art.png), await decodeWithZbar(art.png)];
  const ok = reads.map((r) => r === art.payload);
  if (ok[0]) decoded.jsqr += 1;
  if (ok[1]) decoded.zxing += 1;
  if (ok[2]) decoded.zbar += 1;
  if (ok.every(Boolean)) decoded.all_three += 1;
  else failures.push({ prompt, ecl: ECLS[i % ECLS.length], reads: ok });
}
// Every material: its first word before each of the first 24 prompts (ecl and seed as above).
const styled = [];
for (const [material, words] of Object.entries(MATERIAL_WORDS))
  for (let i = 0; i < 24; i += 1) styled.push({ prompt: `${words[0]} ${prompts[i].prompt}`, material });
for (const [k, { prompt, material }] of styled.entries()) {
  const i = prompts.length + k;
  const art = renderQrArt(request(prompt, i));
  if (art.material !== material) throw new Error(`${prompt}: read as ${art.material}`);
  const reads = [decodeWithJsqr(art.png), await decodeWithZxing(art.png), await decodeWithZbar(art.png)];
  const ok = reads.map((r) => r === art.payload);
  if (ok[0]) decoded.jsqr += 1;
  if (ok[1]) decoded.zxing += 1;
  if (ok[2]) decoded.zbar += 1;
  if (ok.every(Boolean)) decoded.all_three += 1;
  else failures.push({ prompt, ecl: ECLS[i % ECLS.length], reads: ok });
}
const renders = prompts.length + styled.length;
const pct = (n) => +((100 * n) / renders).toFixed(1);
const decodeRates = {
  renders,
  ...Object.fromEntries(Object.entries(decoded).map(([k, n]) => [`${k}_pct`, pct(n)])),
};
console.table([decodeRates]);
if (failures.length) console.log('not read by all three:', failures);

// (3) Speed against the baseline, each build in its own process on one core, taking turns.
const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const speed = (dist, what) =>
  JSON.parse(
    execFileSync(
      'taskset',
      [
        '-c',
        '0',
        'node',
        new URL('./scene-art-speed.mjs', import.meta.url).pathname,
        dist,
        what,
        values.videos,
      ],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      },
    ),
  );
const builds = { current: new URL('../dist', import.meta.url).pathname };
if (values.baseline) builds.baseline = values.baseline;
const speedRows = [];
for (const [name, dist] of Object.entries(builds)) {
  const qr = speed(dist, 'qr');
  const video = speed(dist, 'video');
  speedRows.push({
    build: name,
    qr_cpu_p50_ms: +percentile(qr.cpu, 50).toFixed(1),
    qr_cpu_p90_ms: +percentile(qr.cpu, 90).toFixed(1),
    qr_wall_p50_ms: +percentile(qr.wall, 50).toFixed(1),
    video_720p_5s_cpu_median_s: +percentile(video.cpu, 50).toFixed(2),
    video_720p_5s_cpu_max_s: +Math.max(...video.cpu).toFixed(2),
    video_720p_5s_wall_median_s: +percentile(video.wall, 50).toFixed(2),
  });
}
console.table(speedRows);
const [current, baseline] = speedRows;
const ratios = baseline
  ? {
      qr_cpu_p50_current_over_baseline: +(current.qr_cpu_p50_ms / baseline.qr_cpu_p50_ms).toFixed(2),
      video_cpu_current_over_baseline: +(
        current.video_720p_5s_cpu_median_s / baseline.video_720p_5s_cpu_median_s
      ).toFixed(2),
    }
  : {};
console.log(ratios);

saveReport('scene-art', {
  date: new Date().toISOString(),
  machine: machine(),
  load_average: (await import('node:os')).loadavg(),
  prompts: `${prompts.length} from bench/prompts/scene-prompts.txt`,
  targets: { drawn_share_pct: 90, decode_all_three_pct: 100, qr_cpu_p50_ms: 80, video_720p_5s_cpu_s: 2 },
  nouns: coverage,
  unknown_nouns: Object.fromEntries(unknown),
  held_out: {
    prompts: `${heldOut.length} from bench/prompts/scene-prompts-heldout.txt`,
    nouns: heldOutCoverage,
    unknown_nouns: Object.fromEntries(heldOutUnknown),
  },
  held_out_2: {
    prompts: `${heldOut2.length} from bench/prompts/scene-prompts-heldout-2.txt`,
    nouns: heldOut2Coverage,
    unknown_nouns: Object.fromEntries(heldOut2Unknown),
  },
  held_out_3: {
    prompts: `${heldOut3.length} from bench/prompts/scene-prompts-heldout-3.txt`,
    nouns: heldOut3Coverage,
    unknown_nouns: Object.fromEntries(heldOut3Unknown),
  },
  qr: {
    decode: decodeRates,
    failures,
    render_p50_ms: +percentile(times, 50).toFixed(1),
    render_p90_ms: +percentile(times, 90).toFixed(1),
  },
  speed: { rows: speedRows, ...ratios },
});
