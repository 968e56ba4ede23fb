/**
 * Headless Chromium for report tests: Debian's /usr/bin/chromium driven by playwright-core (never a
 * downloaded browser). A missing browser fails the test with the fix, and a page is opened with every
 * non-file request aborted and recorded, and with console errors and page errors collected.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the browser tests need Debian's chromium. ` +
        'Run .ci/run (it installs it) or, as root, apt-get update && apt-get install -y chromium',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface OpenedPage {
  readonly page: Page;
  /** Console messages of type error, and uncaught page errors. */
  readonly errors: string[];
  /** Requests for anything but file: URLs (aborted). */
  readonly network: string[];
}

export async function openFile(browser: Browser, file: string, viewport = { width: 1280, height: 900 }): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  const network: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    network.push(url);
    return route.abort();
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, errors, network };
}

/**
 * Waits until a page expression is truthy, polling with `page.evaluate` (which the report's
 * Content-Security-Policy allows; `page.waitForFunction` with a string needs `unsafe-eval`).
 */
export async function waitForExpression(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await page.evaluate<boolean>(`Boolean(${expression})`))) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
