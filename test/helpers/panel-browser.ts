import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, installed by ops (ensure_test_tools); never a browser download. */
export const CHROMIUM = '/usr/bin/chromium';

/** Where screenshots of the panel are kept after a run (test artifacts; docs/panel/ holds the committed ones). */
export const SCREENSHOT_DIR = path.resolve('test-artifacts/panel');

/**
 * Headless Chromium as this machine can run it: root needs --no-sandbox, and with no network beyond
 * the registries every background connection (updates, sync, metrics) is switched off.
 */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: the panel's browser tests need Debian's chromium package (ops installs it with the test tools)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 740 };

/** A fresh browser profile (its own cookies) on the panel; `@axe-core/playwright` needs pages of `newContext()`. */
export async function panelContext(browser: Browser, baseUrl: string, viewport = DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport });
  context.setDefaultTimeout(15_000);
  return context;
}

export type AxeViolation = { id: string; impact: string | null | undefined; help: string; targets: string[] };

/** The serious and critical WCAG 2.1 A/AA violations on the page as it is now (empty when it passes). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => node.target.join(' ')) }));
}

/** Keeps a picture of the page under test-artifacts/panel/<name>.png. */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The page's console errors and failed requests, collected while a test drives it (a panel page must not log errors). */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** The built panel's page (ops/lib/panel.sh builds it before the tests and benches). */
export const PANEL_DIST_INDEX = path.resolve('panel/dist/index.html');
