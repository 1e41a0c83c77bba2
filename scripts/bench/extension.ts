import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import type { ReservedSpace } from "./storefront-report";
import { BenchmarkError } from "./stats";

// What the storefront benchmarks (bench:storefront, bench:dawn) share about the theme app
// extension.

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The offer's height while it loads (its reserved space, the plans answer held back) and once
 * its plans are shown, and the width it had: where the two differ, what follows it moves.
 */
export async function offerHeights(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
): Promise<ReservedSpace> {
  const context = await browser.newContext({ viewport });
  try {
    await context.addInitScript({ content: "globalThis.__name = (fn) => fn;" });
    const page = await context.newPage();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/apps/svc/plans*", async (route) => {
      await held;
      await route.continue();
    });
    const box = () =>
      page.$eval("[data-svc-offer]", (offer) => {
        const rect = offer.getBoundingClientRect();
        return {
          state: (offer as HTMLElement).dataset.state,
          width: rect.width,
          height: rect.height,
        };
      });
    await page.goto(url, { waitUntil: "load" });
    const loading = await box();
    release();
    await page.waitForSelector('[data-svc-offer][data-state="ready"]', { timeout: 10_000 });
    const ready = await box();
    if (loading.state !== "loading") {
      throw new BenchmarkError(`The offer was ${loading.state} with its plans held back`);
    }
    return {
      viewport: `${viewport.width}×${viewport.height}`,
      offerWidth: loading.width,
      reservedHeight: loading.height,
      readyHeight: ready.height,
    };
  } finally {
    await context.close();
  }
}

/** A hash of everything the storefront serves from the extension, to notice an edit mid-run. */
export function extensionFingerprint(): string {
  const hash = createHash("sha256");
  const dir = path.join(ROOT, "extensions/svc-protection");
  for (const sub of ["assets", "blocks", "locales"]) {
    for (const name of readdirSync(path.join(dir, sub)).sort()) {
      hash.update(`${sub}/${name}\0`).update(readFileSync(path.join(dir, sub, name)));
    }
  }
  return hash.digest("hex");
}

/** Throws when the extension's files are not those of `fingerprint` (taken at the start). */
export function assertExtensionUnchanged(fingerprint: string) {
  if (extensionFingerprint() !== fingerprint) {
    throw new BenchmarkError(
      "extensions/svc-protection changed during the run; its figures mix two versions. Run again.",
    );
  }
}
