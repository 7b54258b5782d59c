/**
 * Debian's Chromium driven by playwright-core (its own browser downloads fail here), for the
 * console's tests. A page records what would make a test fail: console errors, uncaught
 * exceptions, and any request to a host other than the server under test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: \`make browser\` (or apt-get install chromium) installs it`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and page exceptions since the last `takeProblems`. */
  takeProblems(): string[];
  /** URLs requested from another origin than the server's. */
  outside: string[];
}

export async function watchedPage(
  browser: Browser,
  origin: string,
  viewport = { width: 1366, height: 900 },
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  let problems: string[] = [];
  const outside: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin)
      outside.push(url);
  });
  return {
    page,
    outside,
    takeProblems() {
      const taken = problems;
      problems = [];
      return taken;
    },
  };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`)) as {
    id: string;
    impact: string;
    help: string;
    nodes: string[];
  }[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.join(', ')})`);
}
