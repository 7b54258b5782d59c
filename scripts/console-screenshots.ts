/**
 * Screenshots of every console page, at a laptop's width and a phone's, into docs/console/
 * (`npm run console:screenshots`, after `make setup`). A fresh server gets a few tokens, an
 * account with budgets and two tokens, searches, a QR art task, a song, an enrolled identity and
 * batches of redemption codes, so that the pages show what an operator sees on a server in use;
 * the Playground runs the song and the QR art itself. Before any of that, the Tasks page's empty
 * state; after it, a deduction the balance cannot cover, refused beside its form, and a viewer's
 * top-up of an account, refused (`tasks-empty-*`, `tokens-refused-*`, `accounts-viewer-*`).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../test/support/browser.js';
import { startServer } from '../test/support/server.js';

const OUT = fileURLToPath(new URL('../docs/console/', import.meta.url));
const PORTRAIT = fileURLToPath(new URL('../examples/idcard/portrait.png', import.meta.url));
const WIDTHS = { laptop: { width: 1366, height: 860 }, phone: { width: 390, height: 844 } };
const PAGES = [
  'overview',
  'tokens',
  'accounts',
  'usage',
  'requests',
  'tasks',
  'channels',
  'identities',
  'codes',
  'settings',
];

mkdirSync(OUT, { recursive: true });
const server = await startServer();
const admin = await server.token({ name: 'ops', role: 'admin' });
const viewer = await server.token({ name: 'auditor', role: 'viewer' });
const browser = await launchBrowser();

async function signedIn(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${server.url}/console/`);
  await page.getByLabel('Admin token').waitFor();
  return { context, page };
}

async function signIn(page: Awaited<ReturnType<typeof signedIn>>['page'], token = admin): Promise<void> {
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

for (const [name, viewport] of Object.entries(WIDTHS)) {
  const { context, page } = await signedIn(viewport);
  await signIn(page);
  await page.goto(`${server.url}/console/tasks`);
  await page.locator('#page-title').waitFor();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${OUT}tasks-empty-${name}.png` });
  await context.close();
}
const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}/admin/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
};

const acme = (
  await api('POST', '/tokens', { name: 'acme', credits: 5000, operations: ['serp', 'qrart', 'tune'] })
).token as string;
await api('POST', '/tokens', { name: 'globex', rate_per_second: 20, concurrency: 8 });
await api('POST', '/tokens/acme/credits', { delta: 500, note: 'invoice 42' });
for (const query of ['search channels', 'credits ledger', 'music engine', 'qr art']) {
  await server.post('/serp/web', { query }, acme);
}
await server.post('/serp/web', { query: '' }, acme);
await api('POST', '/accounts', {
  name: 'harbour-co',
  credits: 20000,
  budgets: [
    { period: 'day', credits: 500 },
    { period: 'month', credits: 8000 },
  ],
  low_balance: 1000,
});
const harbour = (await api('POST', '/tokens', { name: 'harbour-app', account: 'harbour-co' }))
  .token as string;
await api('POST', '/tokens', { name: 'harbour-batch', account: 'harbour-co' });
await api('POST', '/accounts/harbour-co/credits', { delta: 5000, note: 'invoice 118' });
for (const query of ['tide tables', 'harbour pilots']) await server.post('/serp/web', { query }, harbour);
await server.post('/qrart/tasks', { content: 'https://example.com', prompt: 'a forest at dawn' }, acme);
await server.post(
  '/tune/audios',
  {
    action: 'generate',
    custom: true,
    title: 'Harbour Lights',
    style: 'synthwave, dreamy, 150 bpm',
    lyric: '[Verse]\nLights along the harbour wall\n[Chorus]\nCarry me home',
  },
  acme,
);
await api('POST', '/identities', {
  name: '张伟',
  id_number: '11010519491231002X',
  portrait: readFileSync(PORTRAIT).toString('base64'),
});

const fair = (await api('POST', '/codes', { credits: 100, count: 50, note: 'trade fair' })) as {
  codes: string[];
};
await api('POST', '/codes', {
  credits: 500,
  count: 20,
  uses: 1,
  expires_at: '2027-01-31T00:00:00Z',
  note: 'launch week',
});
for (const code of fair.codes.slice(0, 12)) {
  const visitor = await server.token({ name: `visitor-${code.slice(-5)}`, credits: 0 });
  await fetch(`${server.url}/v1/account/redeem`, {
    method: 'POST',
    headers: { authorization: `Bearer ${visitor}`, 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
}

try {
  for (const [name, viewport] of Object.entries(WIDTHS)) {
    const { context, page } = await signedIn(viewport);
    await page.screenshot({ path: `${OUT}sign-in-${name}.png` });
    await signIn(page);
    for (const id of PAGES) {
      await page.goto(`${server.url}/console/${id}`);
      await page.locator('#page-title').waitFor();
      await page.waitForLoadState('networkidle');
      if (id === 'tokens') await page.getByRole('button', { name: 'acme' }).click();
      if (id === 'accounts') await page.getByRole('button', { name: 'harbour-co' }).click();
      if (id === 'tasks') await page.locator('tr[data-task] button').first().click();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${OUT}${id}-${name}.png`, fullPage: name === 'laptop' });
    }
    await page.goto(`${server.url}/console/playground`);
    await page.getByLabel('Client token').fill(acme);
    await page.getByLabel('Operation').selectOption('/tune/audios');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('canvas.waveform[data-drawn="yes"]').first().waitFor({ timeout: 120_000 });
    await page.evaluate("document.getElementById('s-result').scrollIntoView()");
    await page.screenshot({ path: `${OUT}playground-${name}.png`, fullPage: name === 'laptop' });
    await page.goto(`${server.url}/console/tokens`);
    await page.getByRole('button', { name: 'acme' }).click();
    const credits = page.getByRole('form', { name: 'Credits' });
    await credits.getByLabel('Credits to add').fill('-100000');
    await credits.getByRole('button', { name: 'Apply' }).click();
    await credits.getByRole('alert').waitFor();
    await credits.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${OUT}tokens-refused-${name}.png` });
    await context.close();
  }
  for (const [name, viewport] of Object.entries(WIDTHS)) {
    const { context, page } = await signedIn(viewport);
    await signIn(page, viewer);
    await page.goto(`${server.url}/console/accounts`);
    await page.getByRole('button', { name: 'harbour-co' }).click();
    const credits = page.getByRole('form', { name: 'Credits' });
    await credits.getByLabel('Credits to add').fill('1000');
    await credits.getByRole('button', { name: 'Apply' }).click();
    await credits.getByRole('alert').waitFor();
    await credits.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${OUT}accounts-viewer-${name}.png` });
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`screenshots in ${OUT}`);
