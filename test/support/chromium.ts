/**
 * Debian's Chromium for the browser tests, driven by playwright-core (PLATFORM-NOTES.md: playwright's own browser
 * download does not work here). On CI a missing browser is a failure (chromium.launch throws), never a skip.
 */
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run',
  '--disable-component-update', '--disable-sync',
];

/** Whether the browser tests of `suite` are skipped here (no Chromium, and not on CI); says so once. */
export function skipBrowserTests(suite: string): boolean {
  const skip = !fs.existsSync(CHROMIUM) && !process.env.CI;
  if (skip) console.warn(`${suite} browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium); they run on CI`);
  return skip;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
