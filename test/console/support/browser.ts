import { existsSync, mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { expect } from "vitest";
import type { BrowserWindow } from "./console-page.js";

/** Debian's Chromium (`apt-get install chromium`); playwright-core downloads no browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Screenshots of every view, kept as CI artifacts in the ignored output folder. */
export const SCREENSHOTS = join(process.cwd(), ".cache", "console-screenshots");

/**
 * Flags for a root user in a container (no sandbox) on a machine whose outbound connections are refused:
 * without the background-networking ones Chromium's own connections (updates, sync) fail and slow it down.
 * Playwright adds --headless and a fresh temporary --user-data-dir itself.
 */
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium (or set CHROMIUM_PATH)`,
    );
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 60_000 });
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

let axeSource: string | undefined;

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules, plus best practices) on the page as it is and fails on any
 * serious or critical violation, naming each with the elements it found.
 */
export async function expectAccessible(page: Page, view: string): Promise<void> {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  // Evaluated through the DevTools protocol, so the page's strict CSP does not apply to the injected script.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const w = globalThis as unknown as BrowserWindow & { axe: Axe };
    const result = await w.axe.run(w.document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
    }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious, `${view}: axe found serious or critical violations`).toEqual([]);
}

interface Axe {
  run(context: unknown, options: object): Promise<AxeResults>;
}
interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/** The view fits its viewport's width: nothing but a table's own scroll region is wider than the screen. */
export async function expectFits(page: Page, view: string): Promise<void> {
  const [scrollWidth, width] = await page.evaluate(() => {
    const w = globalThis as unknown as BrowserWindow;
    return [w.document.documentElement.scrollWidth, w.innerWidth];
  });
  expect(scrollWidth, `${view} is wider than the ${width} px viewport`).toBeLessThanOrEqual(width);
}

/** Everything checked of every view: accessible, fits the screen, and a screenshot for the CI artifacts. */
export async function checkView(page: Page, view: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await expectAccessible(page, `${view} at ${width} px`);
  await expectFits(page, `${view} at ${width} px`);
  await screenshot(page, view);
}

/** A full-page screenshot of a view at the page's current size, e.g. `transaction-page-1280.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = join(SCREENSHOTS, `${name}-${page.viewportSize()?.width ?? 0}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
