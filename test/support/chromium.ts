/**
 * Debian's Chromium for the browser tests, driven by playwright-core (PLATFORM-NOTES.md: playwright's own browser
 * download does not work here). Without it the browser suites skip, saying so; on CI they fail (prerequisites.ts).
 */
import { chromium, type Browser } from 'playwright-core';
import { binary } from './prerequisites.js';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run',
  '--disable-component-update', '--disable-sync',
];

export const CHROMIUM_BINARY = binary(CHROMIUM, 'apt-get install chromium; .ci/run installs it');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
