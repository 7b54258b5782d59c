/**
 * The console in a real browser (Debian's Chromium): sign-in and sign-out, every page at a
 * laptop's and a phone's width with no console error, no request leaving the server and no
 * serious accessibility violation (axe-core), and an operator's work from end to end: a token
 * made and used, topped up, its requests found on Requests, in Usage and its CSV, a channel
 * disabled and traffic leaving it, and serp, QR art and music run from the Playground while the
 * song's task is watched to its end. One server and one browser for the file.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { startFakeSerpWeb, type FakeSerpWeb } from '../support/fake-serp-web.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai.js';
import { accessibilityViolations, launchBrowser, watchedPage, type WatchedPage } from '../support/browser.js';

const PAGES = [
  ['overview', 'Overview'],
  ['tokens', 'Tokens'],
  ['accounts', 'Accounts'],
  ['usage', 'Usage'],
  ['requests', 'Requests'],
  ['tasks', 'Tasks'],
  ['channels', 'Channels'],
  ['identities', 'Identities'],
  ['codes', 'Codes'],
  ['playground', 'Playground'],
  ['settings', 'Settings'],
] as const;

let server: TestServer;
let browser: Browser;
let laptop: WatchedPage;
let page: Page;
let admin: string;
let secret: string;
let near: FakeSerpWeb;
let far: FakeSerpWeb;
let chat: FakeUpstream;

beforeAll(async () => {
  [near, far, chat] = await Promise.all([startFakeSerpWeb(), startFakeSerpWeb(), startFakeUpstream('chat')]);
  const upstream = (name: string, base: string, priority: number) => ({
    name,
    capability: 'serp',
    type: 'passthrough',
    base_url: base,
    api_key: 'upstream-key',
    priority,
  });
  server = await startServer({
    channels: [
      upstream('web-near', near.baseUrl, 1),
      upstream('web-far', far.baseUrl, 2),
      {
        name: 'chat',
        capability: 'chat',
        type: 'openai-compatible',
        base_url: chat.baseUrl,
        models: ['chatmodel-*'],
      },
    ],
    'routing.retries': 0,
  });
  admin = await server.token({ name: 'ops', role: 'admin' });
  browser = await launchBrowser();
  laptop = await watchedPage(browser, server.url);
  page = laptop.page;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await near?.close();
  await far?.close();
  await chat?.close();
});

/** Nothing went wrong on the page since the last look. */
function expectClean(watched: WatchedPage) {
  expect(watched.takeProblems()).toEqual([]);
  expect(watched.outside).toEqual([]);
}

async function open(target: Page, id: string, title: string) {
  await target.goto(`${server.url}/console/${id}`);
  await target.getByRole('heading', { level: 1, name: title }).waitFor();
  await target.waitForLoadState('networkidle');
}

/** What the page's elements are read for (the tests are typed without the DOM's types). */
type Img = { complete: boolean; naturalWidth: number };
type Player = { duration: number };

const search = (query: string) => server.post('/serp/web', { query }, secret);

describe('the console in a browser', () => {
  it('signs in with an admin token; an unknown token and a client token are told why not', async () => {
    await page.goto(`${server.url}/console/`);
    const field = page.getByLabel('Admin token');
    await field.waitFor();
    expectClean(laptop);
    await field.fill('sy_not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('the token is unknown or has been revoked');
    await field.fill(await server.token({ name: 'someone' }));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('this is a client token; the console takes an admin token');
    // The browser's own console logs each refused request; the page itself shows them above.
    laptop.takeProblems();

    await field.fill(admin);
    await field.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'switchyard_console', httpOnly: true, sameSite: 'Strict' });
    expect(cookie?.value).not.toContain(admin);
    // Nothing of the token is left where the page's scripts can read it.
    expect(await page.evaluate('[document.cookie, localStorage.length, sessionStorage.length]')).toEqual([
      '',
      0,
      0,
    ]);
    expectClean(laptop);
  });

  it('opens every page at a laptop and a phone width: no console error, no request elsewhere, no serious axe violation', async () => {
    for (const [id, title] of PAGES) {
      // Through the navigation, as a person would.
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: title }).click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.waitForLoadState('networkidle');
      if (id !== 'overview') {
        // The console moves focus in an effect after the page is drawn: asked until it has.
        await expect
          .poll(() => page.evaluate('document.activeElement.id'), {
            message: `${id}: focus moves to the heading`,
          })
          .toBe('page-title');
      }
      expect(await accessibilityViolations(page), id).toEqual([]);
      expectClean(laptop);
    }

    const phone = await watchedPage(browser, server.url, { width: 390, height: 844 });
    await phone.page.context().addCookies(await page.context().cookies());
    for (const [id, title] of PAGES) {
      await open(phone.page, id, title);
      expect(await accessibilityViolations(phone.page), `${id} on a phone`).toEqual([]);
      const overflow = await phone.page.evaluate('document.documentElement.scrollWidth - innerWidth');
      expect(overflow, `${id} fits a phone's width`).toBeLessThanOrEqual(0);
      // Tables too: a row is drawn as a card of headings and values, not scrolled sideways.
      const sideways = await phone.page.evaluate(
        "[...document.querySelectorAll('.table-wrap')].filter((w) => w.scrollWidth > w.clientWidth).length",
      );
      expect(sideways, `${id}: tables fit a phone's width`).toBe(0);
      expectClean(phone);
    }
    await phone.page.context().close();
  });

  it('is usable with the keyboard: the skip link first, then the navigation', async () => {
    await open(page, 'overview', 'Overview');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Tokens');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
    expectClean(laptop);
  });

  it('creates a token whose secret, shown once, works over HTTP, and tops it up', async () => {
    await open(page, 'tokens', 'Tokens');
    const form = page.getByRole('region', { name: 'New token' });
    await form.getByLabel('Name').fill('acme');
    await form.getByLabel('Credits').fill('100');
    await form.getByRole('button', { name: 'Create token' }).click();
    secret = (await page.locator('[data-secret]').first().textContent()) as string;
    expect(secret).toMatch(/^sy_/);
    // The list read after the creation, before the token is used.
    await expect.poll(() => page.locator('[data-balance="acme"]').textContent()).toBe('100');
    expect((await search('first light')).status).toBe(200);
    expect(near.received.map((r) => r.body.query)).toEqual(['first light']);

    // A search reads the list again: one token, its balance after the search it paid for.
    await page.getByLabel('Search by name').fill('acm');
    await expect.poll(() => page.getByRole('table', { name: 'Tokens' }).locator('tbody tr').count()).toBe(1);
    await expect.poll(() => page.locator('[data-balance="acme"]').textContent()).toBe('99');
    await page.getByRole('button', { name: 'acme' }).click();
    const credits = page.getByRole('form', { name: 'Credits' });
    await credits.getByLabel('Credits to add').fill('50');
    await credits.getByLabel('Note').fill('invoice 42');
    await credits.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('[data-balance="acme"]').textContent()).toBe('149');
    // A deduction past zero is refused where it was asked.
    await credits.getByLabel('Credits to add').fill('-1000');
    await credits.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => credits.getByRole('alert').textContent()).toContain('below zero');
    laptop.takeProblems();
    expect(laptop.outside).toEqual([]);
  });

  it('edits a token’s limits and expiry, disables and enables it, and rotates its callback secret', async () => {
    const limits = page.getByRole('form', { name: 'Limits' });
    await limits.getByLabel('Operations').fill('serp, qrart, tune, chat');
    await limits.getByLabel('Requests per second').fill('7');
    await limits.getByLabel('Expires on').fill('2099-12-31');
    await limits.getByRole('button', { name: 'Save limits' }).click();
    await limits.getByText('Saved.').or(limits.getByRole('alert')).waitFor();
    expect(await limits.getByRole('alert').allTextContents()).toEqual([]);
    const token = await fetch(`${server.url}/admin/api/v1/tokens/acme`, {
      headers: { authorization: `Bearer ${admin}` },
    }).then(
      (r) => r.json() as Promise<{ rate_per_second: number; expires_at: string; operations: string[] }>,
    );
    expect(token.rate_per_second).toBe(7);
    expect(token.expires_at.slice(0, 4)).toBe('2099');
    expect(token.operations).toContain('/chatmodel/chat/completions');
    expect(token.operations).not.toContain('/clip/videos');

    await page.getByRole('button', { name: 'Disable' }).click();
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'acme' }).locator('.state').textContent())
      .toBe('disabled');
    await page.waitForTimeout(400); // the token cache's 300 ms
    const refused = await search('while disabled');
    expect(refused.status).toBe(401);
    await page.getByRole('button', { name: 'Enable' }).click();
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'acme' }).locator('.state').textContent())
      .toBe('active');

    await page.getByRole('button', { name: 'Rotate callback secret' }).click();
    await expect.poll(() => page.locator('[data-secret]').last().textContent()).toMatch(/^whsec_/);
    expectClean(laptop);
  });

  it('finds the requests made on Requests, in Usage and in its CSV', async () => {
    const answered = await search('second light');
    const refused = await server.post('/serp/web', { query: '' }, secret);
    expect([answered.status, refused.status]).toEqual([200, 400]);

    await open(page, 'requests', 'Requests');
    await page.getByLabel('Token').fill('acme');
    await page.getByRole('button', { name: 'Apply' }).click();
    const row = (trace: string) => page.getByRole('row').filter({ hasText: trace });
    await row(answered.headers.get('x-trace-id') as string).waitFor();
    await expect
      .poll(() => row(refused.headers.get('x-trace-id') as string).textContent())
      .toContain('bad_request');
    await page.getByLabel('Status').selectOption('4xx');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Requests' }).getByRole('row').count()).toBe(2);

    await open(page, 'usage', 'Usage');
    const usage = page
      .getByRole('table', { name: 'Usage rows' })
      .getByRole('row')
      .filter({ hasText: 'acme' });
    await expect.poll(() => usage.textContent()).toMatch(/acmeserp\.web3\d*2\d*1\d*2/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split(/\r?\n/)[0]).toBe('token,operation,requests,succeeded,failed,credits,p50_ms,p95_ms');
    expect(csv).toMatch(/^acme,serp\.web,3,2,1,2,/m);
    expectClean(laptop);
  });

  it('disables a channel, and the traffic leaves it', async () => {
    await open(page, 'channels', 'Channels');
    const nearRow = page.locator('tr[data-channel="web-near"]');
    await nearRow.getByRole('button', { name: 'Disable web-near' }).click();
    await expect.poll(() => nearRow.locator('.state').textContent()).toBe('disabled');
    const before = near.received.length;
    for (const query of ['one', 'two', 'three']) expect((await search(query)).status).toBe(200);
    expect(near.received).toHaveLength(before);
    expect(far.received.map((r) => r.body.query)).toEqual(['one', 'two', 'three']);
    await page.reload();
    const farRow = page.locator('tr[data-channel="web-far"]');
    await expect.poll(() => farRow.locator('td').nth(4).textContent()).toBe('3');
    expectClean(laptop);
  });

  it('runs serp, chat, QR art and music from the Playground, and the song task is watched to its end on Tasks', async () => {
    await open(page, 'playground', 'Playground');
    await page.getByLabel('Client token').fill(secret);
    await page.getByRole('button', { name: 'Run' }).click();
    const results = page.getByRole('list', { name: 'Search results' });
    await expect.poll(() => results.textContent()).toContain('search channels');

    // Chat streams: the answer grows as its chunks arrive (the upstream sends a word a chunk).
    await page.getByLabel('Operation').selectOption('/chatmodel/chat/completions');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('.chat-answer').or(page.getByRole('alert')).waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    await expect.poll(() => page.locator('.chat-answer').textContent()).toBe('Say hello to the operators');
    expect(chat.received.at(-1)?.body).toMatchObject({ model: 'chatmodel-4o', stream: true });

    await page.getByLabel('Operation').selectOption('/qrart/tasks');
    await page.getByRole('button', { name: 'Run' }).click();
    const image = page.getByRole('img', { name: /^Image:/ });
    await image.or(page.getByRole('alert')).waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    await expect
      .poll(() =>
        image.evaluate((img) =>
          (img as unknown as Img).complete ? (img as unknown as Img).naturalWidth : 0,
        ),
      )
      .toBeGreaterThan(500);

    await page.getByLabel('Operation').selectOption('/tune/audios');
    // The starter song, edited in its form to a sung intro and a one-line chorus at the fastest
    // tempo: about 9 s of music, still longer than the 5 s the player is asked for below.
    await page
      .locator('#field-lyric')
      .fill('[Intro]\nWalking down the river road\n[Chorus]\nHold the light and let it glow');
    await page.locator('#field-style').fill('folk, acoustic guitar, 200 bpm');
    await page.getByRole('button', { name: 'Run' }).click();
    const tasks = await watchedPage(browser, server.url);
    await tasks.page.context().addCookies(await page.context().cookies());
    await open(tasks.page, 'tasks', 'Tasks');
    const song = tasks.page.locator('tr[data-task]').filter({ hasText: 'tune.audios' });
    const seen = new Set<string>();
    // Up to about three minutes: the song shares the cores with the rest of the suite.
    for (let i = 0; i < 400 && !seen.has('succeeded'); i++) {
      seen.add((await song.locator('.state').textContent({ timeout: 10_000 })) as string);
      await tasks.page.waitForTimeout(500);
    }
    expect(seen.has('running') || seen.has('queued'), `states seen: ${[...seen]}`).toBe(true);
    expect(seen.has('succeeded')).toBe(true);
    await expect.poll(() => song.getByRole('progressbar').getAttribute('aria-label')).toBe('progress 100%');
    expectClean(tasks);
    await tasks.page.context().close();

    const waveform = page.getByRole('img', { name: 'Waveform of River Road' }).first();
    await expect.poll(() => waveform.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('yes');
    const audio = page.locator('audio').first();
    await expect
      .poll(() => audio.evaluate((a) => (a as unknown as Player).duration), { timeout: 15_000 })
      .toBeGreaterThan(5);
    expect(await accessibilityViolations(page), 'the Playground with its results').toEqual([]);
    expectClean(laptop);
  }, 240_000);

  it('makes redemption codes shown once, which a client redeems over HTTP, and disables their batch', async () => {
    await open(page, 'codes', 'Codes');
    const form = page.getByRole('region', { name: 'Make a batch' });
    await form.getByLabel('Credits per use').fill('25');
    await form.getByLabel(/^Codes/).fill('2');
    await form.getByLabel('Note').fill('fair stand');
    await form.getByRole('button', { name: 'Make codes' }).click();
    const codes = ((await page.locator('[data-secret]').first().textContent()) as string).split('\n');
    expect(codes).toHaveLength(2);
    // The codes are kept as hashes: the file saved now is their one copy.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('batch,code');
    expect(csv.slice(1).map((line) => line.split(',')[1])).toEqual(codes);
    expect(download.suggestedFilename()).toMatch(/^codes-.+\.csv$/);
    const { secret: client } = await server.services.tokens.create({ name: 'fair-visitor', credits: 0 });
    const redeemed = await fetch(`${server.url}/v1/account/redeem`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: codes[0] }),
    });
    expect(await redeemed.json()).toEqual({ credits: 25, balance: 25 });
    const batches = page.getByRole('table', { name: 'Batches of redemption codes' });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Codes' }).waitFor();
    await expect.poll(() => batches.locator('tbody tr').first().textContent()).toContain('1 of 2');
    await batches
      .getByRole('button', { name: /Disable the batch/ })
      .first()
      .click();
    await expect.poll(() => batches.locator('tbody tr').first().textContent()).toContain('disabled');
    laptop.takeProblems();
    expect(laptop.outside).toEqual([]);
  });

  it('creates an account with a budget, tops it up and edits its budgets, with its ledger; a viewer is refused a change', async () => {
    await open(page, 'accounts', 'Accounts');
    const form = page.getByRole('region', { name: 'New account' });
    await form.getByLabel('Name').fill('harbour-co');
    await form.getByLabel('Opening credits').fill('1000');
    await form.getByLabel('Credits per day').fill('200');
    await form.getByLabel('Low-balance line').fill('100');
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toBe('Account harbour-co created.');
    const accounts = page.getByRole('table', { name: 'Accounts' });
    const row = accounts.getByRole('row').filter({ hasText: 'harbour-co' });
    await expect.poll(() => page.locator('[data-balance="harbour-co"]').textContent()).toBe('1,000');
    await expect.poll(() => row.textContent()).toMatch(/0 \/ 200 per day, resets /);
    // A name taken is refused beside the form, with the server's reason.
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('harbour-co');
    for (const problem of laptop.takeProblems()) expect(problem).toMatch(/409/); // the browser logs it

    // A token made on Tokens for this account spends its balance, and Tokens names its account.
    await open(page, 'tokens', 'Tokens');
    const newToken = page.getByRole('region', { name: 'New token' });
    await newToken.getByLabel('Name').fill('harbour-app');
    await newToken.getByLabel(/^Account/).fill('harbour-co');
    await newToken.getByRole('button', { name: 'Create token' }).click();
    await page.locator('[data-secret]').first().waitFor();
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'harbour-app' }).locator('td').nth(2).textContent())
      .toBe('harbour-co');
    expect(await page.locator('[data-balance="harbour-app"]').textContent()).toBe('1,000');

    await open(page, 'accounts', 'Accounts');
    await page.getByLabel('Search by name').fill('harbour');
    await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('1');
    await row.getByRole('button', { name: 'harbour-co' }).click();
    const detail = page.getByRole('region', { name: 'Account harbour-co' });
    expect(await detail.getByRole('listitem').filter({ hasText: 'harbour-app' }).count()).toBe(1);

    const credits = detail.getByRole('form', { name: 'Credits' });
    await credits.getByLabel('Credits to add').fill('500');
    await credits.getByLabel('Note').fill('invoice 7');
    await credits.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('[data-balance="harbour-co"]').textContent()).toBe('1,500');
    const ledger = detail.getByRole('table', { name: 'Ledger of harbour-co' });
    await expect
      .poll(() => ledger.locator('tbody tr').first().locator('td').allTextContents())
      .toEqual([expect.any(String), 'topup', '+500', '1,500', '—', 'invoice 7', 'ops']);
    // Below it, the opening balance.
    expect((await ledger.locator('tbody tr').nth(1).locator('td').allTextContents()).slice(2, 4)).toEqual([
      '+1,000',
      '1,000',
    ]);

    const budgets = detail.getByRole('form', { name: 'Budgets and limits' });
    expect(await budgets.getByLabel('Credits per day').inputValue()).toBe('200');
    await budgets.getByLabel('Credits per month').fill('4000');
    await budgets.getByRole('button', { name: 'Save budgets' }).click();
    await expect.poll(() => row.textContent()).toMatch(/0 \/ 4,000 per month, resets /);
    const saved = (await fetch(`${server.url}/admin/api/v1/accounts/harbour-co`, {
      headers: { authorization: `Bearer ${admin}` },
    }).then((r) => r.json())) as { budgets: { period: string; credits: number }[]; low_balance: number };
    expect(saved.budgets.map((b) => [b.period, b.credits])).toEqual([
      ['day', 200],
      ['month', 4000],
    ]);
    expect(saved.low_balance).toBe(100);

    expectClean(laptop);

    // A viewer sees the account and is refused a change, beside the form it used.
    const viewer = await watchedPage(browser, server.url);
    await viewer.page.goto(`${server.url}/console/`);
    await viewer.page.getByLabel('Admin token').fill(await server.token({ name: 'auditor', role: 'viewer' }));
    await viewer.page.getByRole('button', { name: 'Sign in' }).click();
    await viewer.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await open(viewer.page, 'accounts', 'Accounts');
    await viewer.page.getByRole('button', { name: 'harbour-co' }).click();
    const refused = viewer.page.getByRole('form', { name: 'Credits' });
    await refused.getByLabel('Credits to add').fill('100');
    await refused.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => refused.getByRole('alert').textContent()).toContain('changes nothing');
    expect(await viewer.page.locator('[data-balance="harbour-co"]').textContent()).toBe('1,500');
    // The browser logs the refused request; nothing else went wrong.
    const problems = viewer.takeProblems();
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(/403/);
    expect(viewer.outside).toEqual([]);
    await viewer.page.context().close();
  });

  it('returns to sign-in with the reason when the signed-in token is revoked', async () => {
    const other = await watchedPage(browser, server.url);
    await other.page.goto(`${server.url}/console/`);
    await other.page.getByLabel('Admin token').fill(await server.token({ name: 'ops-2', role: 'admin' }));
    await other.page.getByRole('button', { name: 'Sign in' }).click();
    await other.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    // The heading comes before the page's data: a read still under way when the token goes would
    // return the page to sign-in before the navigation below could be clicked.
    await other.page.waitForLoadState('networkidle');
    await fetch(`${server.url}/admin/api/v1/tokens/ops-2`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    await other.page.waitForTimeout(400); // the token cache's 300 ms
    await other.page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Tokens' })
      .click();
    await other.page.getByLabel('Admin token').waitFor();
    await expect
      .poll(() => other.page.getByRole('status').first().textContent())
      .toBe('the token is unknown or has been revoked');
    await other.page.context().close();
  });

  it('signs out, and the session ends on the server', async () => {
    const [cookie] = await page.context().cookies();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    const after = await fetch(`${server.url}/admin/api/v1/overview`, {
      headers: { cookie: `${cookie?.name}=${cookie?.value}` },
    });
    expect(after.status).toBe(401);
    await page.goto(`${server.url}/console/tokens`);
    await page.getByLabel('Admin token').waitFor();
    laptop.takeProblems(); // the signed-out check of the session is a 401 the browser logs
    expect(laptop.outside).toEqual([]);
  });
});
