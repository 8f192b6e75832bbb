/**
 * The real-browser tier's Chromium (Debian's package, driven by playwright-core): whether it is here,
 * and one headless launch every browser test shares.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
/** Flags of every headless launch: no sandbox (CI runs as root), no GPU, no background traffic. */
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];

/** Whether Chromium is installed; when not, says which tests skip and how .ci/run gets it. */
export function chromiumPresent(tests: string): boolean {
  const present = existsSync(CHROMIUM);
  if (!present) console.warn(`skipping ${tests}: ${CHROMIUM} not installed; .ci/run installs chromium with apt-get`);
  return present;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
