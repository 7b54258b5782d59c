import { it, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { startServer } from './support/server.js';
it('generates', async () => {
  const server = await startServer();
  const token = await server.token();
  for (const style of ['calm piano ballad, 90 bpm', 'rock, 140 bpm, electric guitar, drums, bass']) {
    const t = performance.now(); const c = process.cpuUsage();
    const r = await server.post('/tune/audios', { action: 'generate', custom: true, title: 'Rain', style, lyric: '[Verse]\nWalking down the river road\nSinging softly all alone\n[Chorus]\nHold the light and let it glow' }, token);
    const cpu = process.cpuUsage(c);
    expect(r.status, r.text).toBe(200);
    const items = r.body.data as { audio_url: string; duration: number }[];
    console.log(style, 'wall', ((performance.now() - t) / 1000).toFixed(1), 's cpu(node)', ((cpu.user + cpu.system) / 1e6).toFixed(1), 'durations', items.map((i) => i.duration));
    const mp3 = Buffer.from(await (await fetch(items[0]!.audio_url)).arrayBuffer());
    writeFileSync(`/tmp/${style.split(',')[0]!.replace(/ /g, '-')}.mp3`, mp3);
  }
  await server.close();
}, 300000);
