/**
 * `/mcp` with the official MCP SDK client over HTTP, on the local engines: the tool list made
 * from the operation table, every tool called once (search, both chat families, ID card check and
 * OCR, QR art whose image scans, a song with its progress, its vocals and persona, the three
 * video families), a video cancelled and refunded, a client that leaves while its task goes on,
 * tokens without a permission or without credits, bad arguments, no token, a fault of ours, and
 * usage rows and limits exactly as over HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SearchIndex } from '../../src/engines/searchindex/index.js';
import { ingest } from '../../src/cli/search-ingest.js';
import { OPERATIONS } from '../../src/contract/table.js';
import { SerpResponse } from '../../src/contract/serp.js';
import { ChatCompletion } from '../../src/contract/chat.js';
import { loadIdentityKey } from '../../src/providers/identity/identity-key.js';
import { IdentityRegistry } from '../../src/providers/identity/registry.js';
import { encodePng } from '../../src/engines/image-codec.js';
import { startServer, type TestServer } from '../support/server.js';
import { expectShape } from '../support/expect.js';
import { writeTinyGguf } from '../support/tiny-gguf.js';
import { decodeWithJsqr } from '../support/qr-decoders.js';
import { drawPortrait, makeSpecimen } from '../support/idcard-specimen/index.js';
import { download, probe } from '../support/media-probe.js';
import { ONE_LINE_LYRIC, QUICK_STYLE } from '../support/quick-song.js';
import { call, connect, linksOf, textOf } from './support.js';

// A song and three short videos are made whole: seconds of work each, more on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const dir = mkdtempSync(join(tmpdir(), 'sy-mcp-'));
const card = makeSpecimen({ seed: 105 });
const cardUrl = `data:image/${card.image[0] === 0xff ? 'jpeg' : 'png'};base64,${card.image.toString('base64')}`;

let server: TestServer;
let client: Client;

beforeAll(async () => {
  const indexPath = join(dir, 'index.db');
  const index = new SearchIndex(indexPath);
  await ingest(index, [join(resolve('test/serp/fixtures'), 'records.jsonl')], {
    baseUrl: 'https://docs.example/',
  });
  index.close();
  const modelPath = await writeTinyGguf(dir);
  server = await startServer({
    'search.index_path': indexPath,
    // One engine thread for music and one for video, each loaded once: the song is one, and the
    // three videos made at once are small.
    'music.workers': 1,
    'video.workers': 1,
    channels: [
      {
        name: 'tiny',
        capability: 'chat',
        type: 'local-llm',
        model_path: modelPath,
        models: ['chatmodel-4o-mini', 'moon-*'],
      },
    ],
  });
  const registry = new IdentityRegistry(server.services.db, loadIdentityKey(server.config.identity));
  await registry.enroll({
    name: card.truth.name,
    id_number: card.truth.id_number,
    portrait: encodePng(drawPortrait(card.person.portraitSeed, 1)),
  });
  client = await connect(server, await server.token());
});

afterAll(async () => {
  await client.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the tool list', () => {
  it('has a tool per operation and get_task, each schema the operation’s own', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'web_search',
        'clip_video',
        'dance_video',
        'maxi_video',
        'music',
        'vocals',
        'music_persona',
        'chat_chatmodel',
        'chat_moon',
        'qr_art',
        'idcard_check',
        'idcard_ocr',
        'get_task',
      ].sort(),
    );
    const search = tools.find((t) => t.name === 'web_search')!;
    expect(search.inputSchema).toEqual(JSON.parse(JSON.stringify(OPERATIONS[0]!.request)));
    for (const tool of tools) expect(tool.description!.length, tool.name).toBeGreaterThan(60);
    // The tool waits for its task itself, answers chat in one piece, and leaves retrieval to get_task.
    const music = tools.find((t) => t.name === 'music')!.inputSchema.properties!;
    expect(music).not.toHaveProperty('async');
    expect(music).toHaveProperty('lyric');
    expect(tools.find((t) => t.name === 'chat_moon')!.inputSchema.properties).not.toHaveProperty('stream');
    const qr = tools.find((t) => t.name === 'qr_art')!.inputSchema;
    expect(Object.keys(qr.properties!)).not.toEqual(expect.arrayContaining(['action']));
    expect(qr.properties).not.toHaveProperty('ids');
    expect(qr.properties).toHaveProperty('content');
    expect(tools.find((t) => t.name === 'get_task')!.inputSchema.required).toEqual(['task_id']);
  });
});

describe('sync tools', () => {
  it('web_search answers the search results as structured content', async () => {
    const result = await call(client, 'web_search', { query: 'glider' });
    expect(result.isError).toBeFalsy();
    expectShape(result.structuredContent, SerpResponse);
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('both chat families answer their reply as text', async () => {
    for (const [tool, model] of [
      ['chat_chatmodel', 'chatmodel-4o-mini'],
      ['chat_moon', 'moon-k2.5'],
    ] as const) {
      const result = await call(client, tool, {
        model,
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 3,
      });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expectShape(result.structuredContent, ChatCompletion);
      const reply = (result.structuredContent.choices as { message: { content: string } }[])[0]!.message
        .content;
      expect(result.content).toEqual([{ type: 'text', text: reply }]);
    }
  });

  it('idcard_check and idcard_ocr read the card', async () => {
    const check = await call(client, 'idcard_check', { image_url: cardUrl });
    expect(check.isError, JSON.stringify(check.structuredContent)).toBeFalsy();
    expect(check.structuredContent).toMatchObject({ result: 'success', name: card.truth.name });
    const ocr = await call(client, 'idcard_ocr', {
      name: card.truth.name,
      id_card: card.truth.id_number,
      image_url: cardUrl,
    });
    expect(ocr.structuredContent).toMatchObject({ result: 'success', name: card.truth.name });
  });
});

describe('task tools', () => {
  it('qr_art answers the PNG as image content, and it scans', async () => {
    const result = await call(client, 'qr_art', { content: 'https://example.com/mcp', seed: 3 });
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    const image = result.content.find((c) => c.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const png = Buffer.from((image as { data: string }).data, 'base64');
    expect(decodeWithJsqr(png)).toBe('https://example.com/mcp');
    expect(result.structuredContent).toMatchObject({ state: 'succeeded', response: { success: true } });
  });

  it('music reports progress while it composes, then vocals and a persona from the song', async () => {
    const steps: { progress: number; total?: number; message?: string }[] = [];
    const result = await call(
      client,
      'music',
      { action: 'generate', custom: true, style: QUICK_STYLE, lyric: ONE_LINE_LYRIC },
      { onprogress: (step) => steps.push(step) },
    );
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    // Several steps, always going up, out of 1, each with the stage of the work.
    expect(steps.length).toBeGreaterThanOrEqual(4);
    const fractions = steps.map((s) => s.progress);
    expect(fractions).toEqual([...new Set(fractions)].sort((a, b) => a - b));
    expect(steps.every((s) => s.total === 1 && /^[a-z]+$/.test(s.message ?? ''))).toBe(true);
    expect(steps.map((s) => s.message)).toEqual(expect.arrayContaining(['compose']));
    const songs = result.structuredContent.data as { id: string; state: string; audio_url: string }[];
    expect(songs[0]!.state).toBe('succeeded');
    const audio = linksOf(result, 'audio/mpeg');
    expect(audio.map((l) => l.uri)).toContain(songs[0]!.audio_url);
    expect((await probe(await download(audio[0]!.uri))).streams[0]!.codec_name).toBe('mp3');

    const vocals = await call(client, 'vocals', { audio_id: songs[0]!.id });
    expect(vocals.isError, JSON.stringify(vocals.structuredContent)).toBeFalsy();
    expect(vocals.structuredContent.data).toMatchObject({ status: 'complete' });
    expect(linksOf(vocals, 'audio/mpeg').length).toBeGreaterThanOrEqual(1);

    const persona = await call(client, 'music_persona', { audio_id: songs[0]!.id, name: 'river voice' });
    expect(persona.isError, JSON.stringify(persona.structuredContent)).toBeFalsy();
    expect(JSON.stringify(persona.structuredContent)).toContain('persona');
  });

  it('clip, dance and maxi videos answer their MP4s as resource links', async () => {
    const [clip, dance, maxi] = await Promise.all([
      // The smallest frames each family offers: what is checked is how the tool answers its MP4.
      call(client, 'clip_video', {
        action: 'text2video',
        prompt: 'a calm ocean at sunset',
        aspect_ratio: '1:1',
      }),
      call(client, 'dance_video', {
        model: 'dance-1-0-lite-t2v-250428',
        content: [{ type: 'text', text: 'neon city at night --rs 480p --rt 1:1' }],
        frames: 29,
      }),
      call(client, 'maxi_video', { model: 'maxi-t2v', action: 'generate', prompt: 'waves on a quiet shore' }),
    ]);
    for (const result of [clip!, dance!, maxi!]) {
      expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
      const [video] = linksOf(result, 'video/mp4');
      expect(video, JSON.stringify(result.content)).toBeDefined();
      expect((await probe(await download(video!.uri))).streams.map((s) => s.codec_name)).toContain('h264');
    }
  });
});

describe('cancellation', () => {
  it('a video cancelled by the client is cancelled and refunded', async () => {
    const secret = await server.token({ name: 'mcp-cancel', credits: 100 });
    const tokenId = (await server.services.tokens.list()).find((t) => t.name === 'mcp-cancel')!.id;
    const paying = await connect(server, secret);
    const abort = new AbortController();
    let taskId: string | undefined;
    const running = call(
      paying,
      'clip_video',
      // The smallest clip (720×720, 5 s), still seconds of rendering after the first step.
      { action: 'text2video', prompt: 'a long slow pan over hills', aspect_ratio: '1:1' },
      {
        signal: abort.signal,
        // The first step past queued: the engine has the task.
        onprogress: (step) => step.progress > 0 && abort.abort(),
      },
    );
    await expect(running).rejects.toThrow(/abort/i);
    // The task is the token's latest; the cancellation reaches it in its own request.
    for (let tries = 0; ; tries += 1) {
      const { rows } = await server.services.admin.tasks.list({ limit: 1, tokenId });
      taskId = rows[0]?.id;
      const task = taskId ? await call(paying, 'get_task', { task_id: taskId }) : undefined;
      if (task?.structuredContent.state === 'failed') {
        expect(task.structuredContent).toMatchObject({ response: { error: { code: 'cancelled' } } });
        break;
      }
      expect(tries, JSON.stringify(task?.structuredContent)).toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 50));
    }
    const token = (await server.services.tokens.list()).find((t) => t.name === 'mcp-cancel');
    expect(await server.services.tokens.balance(token!.id)).toBe(100);
    // Another token's task is unknown to get_task.
    expect(textOf(await call(client, 'get_task', { task_id: taskId! }))).toBe(`not_found: no task ${taskId}`);
    await paying.close();
  });
});

describe('a client that goes away', () => {
  it('stops watching; the task goes on and is charged', async () => {
    const leaving = await connect(server, await server.token({ name: 'mcp-leaving', credits: 100 }));
    const tokenId = (await server.services.tokens.list()).find((t) => t.name === 'mcp-leaving')!.id;
    const body = {
      model: 'dance-1-0-lite-t2v-250428',
      content: [{ type: 'text', text: 'a kite over dunes --rs 480p --rt 1:1' }],
      // The fewest frames dance makes (1.2 s): the client leaves at the first step past queued.
      frames: 29,
    };
    let left: Promise<void> | undefined;
    const running = call(leaving, 'dance_video', body, {
      onprogress: (step) => {
        if (step.progress > 0) left ??= leaving.close();
      },
    });
    await expect(running).rejects.toThrow();
    await left;
    const until = Date.now() + 30_000;
    let task;
    do {
      await new Promise((r) => setTimeout(r, 100));
      [task] = (await server.services.admin.tasks.list({ limit: 1, tokenId })).rows;
    } while (task?.state !== 'succeeded' && Date.now() < until);
    // 29 frames (1.2 s) at 480p, at 2 credits a second by default: 3, rounded up.
    expect(task).toMatchObject({ state: 'succeeded', credits: 3 });
    expect(await server.services.tokens.balance(tokenId)).toBe(97);
  });
});

describe('refusals', () => {
  it('bad arguments are a tool error naming each field and its rule', async () => {
    const result = await call(client, 'web_search', { query: '', page: 0, colour: 'red' });
    expect(result.isError).toBe(true);
    const details = (result.structuredContent.error as { details: { field: string }[] }).details;
    expect(details.map((d) => d.field).sort()).toEqual(['colour', 'page', 'query']);
    expect(textOf(result)).toMatch(/^bad_request: .*page: must be at least 1/);
    const task = await call(client, 'get_task', { task_id: 'nope' });
    expect(textOf(task)).toBe('bad_request: task_id: must be a UUID');
    const unknown = await call(client, 'get_task', { task_id: '00000000-0000-4000-8000-000000000000' });
    expect(textOf(unknown)).toBe('not_found: no task 00000000-0000-4000-8000-000000000000');
  });

  it('a token sees and calls only the tools of its operations', async () => {
    const narrow = await connect(server, await server.token({ operations: ['/serp/web', '/tune/tasks'] }));
    const { tools } = await narrow.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_task', 'web_search']);
    const refused = await call(narrow, 'clip_video', { action: 'text2video', prompt: 'x' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('token_mismatched: this token may not call /clip/videos');
    await expect(narrow.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/no tool named/);
    await narrow.close();
  });

  it('credits, rate and concurrency limits, usage rows and the request log as over HTTP', async () => {
    const secret = await server.token({ name: 'mcp-metered', credits: 1, ratePerSecond: 2 });
    const metered = await connect(server, secret);
    expect((await call(metered, 'web_search', { query: 'glider' })).isError).toBeFalsy();
    const broke = await call(metered, 'web_search', { query: 'glider' });
    expect(textOf(broke)).toMatch(/^(used_up|too_many_requests): /);
    const limited = await Promise.all([1, 2, 3].map(() => call(metered, 'web_search', { query: 'x' })));
    expect(limited.map((r) => textOf(r).split(':')[0])).toContain('too_many_requests');
    await metered.close();
    await server.services.usage.flush();
    const { rows } = await server.services.admin.requests({ token: 'mcp-metered', limit: 10 });
    expect(rows.map((r) => [r.operation, r.status])).toContainEqual(['serp.web', 200]);
    expect(rows.find((r) => r.status === 200)!.credits).toBe(1);
    expect(rows.some((r) => r.status === 429)).toBe(true);

    // One call at a time: a second while the first reads a card is refused.
    const single = await connect(server, await server.token({ maxConcurrency: 1 }));
    const both = await Promise.all([1, 2].map(() => call(single, 'idcard_check', { image_url: cardUrl })));
    expect(both.map((r) => (r.isError ? textOf(r).split(':')[0] : 'ok')).sort()).toEqual([
      'ok',
      'too_many_requests',
    ]);
    // The slot is given back when a call is answered.
    expect((await call(single, 'web_search', { query: 'glider' })).isError).toBeFalsy();
    await single.close();
  });

  it('a fault of ours is a tool error quoting the trace id, with no detail', async () => {
    const read = vi
      .spyOn(server.services.blobs, 'read')
      .mockRejectedValueOnce(new Error("ENOENT: no such file or directory, open '/srv/blobs/x.png'"));
    const result = await call(client, 'qr_art', { content: 'fault', seed: 1 });
    read.mockRestore();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^api_error: internal error; quote trace_id [0-9a-f-]{36} when reporting it$/,
    );
    expect(JSON.stringify(result)).not.toContain('/srv/blobs');
  });

  it('no token, a wrong one or an admin one: refused before any MCP message is read', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (authorization?: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(initialize),
      });
    const none = await post();
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ success: false, error: { code: 'no_token' } });
    expect((await post('Bearer sy_unknown')).status).toBe(401);
    // The body is not read before the token is known.
    const unread = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(unread.status).toBe(401);
    const { secret } = await server.services.tokens.create({ name: 'mcp-admin', role: 'admin' });
    expect((await post(`Bearer ${secret}`)).status).toBe(403);
    // The SDK's client sees the same 401.
    await expect(connect(server)).rejects.toMatchObject({ code: 401 });
    const get = await fetch(`${server.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });
});
