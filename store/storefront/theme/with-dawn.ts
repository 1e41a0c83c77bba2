import { describe } from "vitest";
import { DAWN_HOW_TO, dawnDir } from "./files";

/*
 * The one place tests ask whether Dawn is here. Tests of Dawn itself run when SHOPIFY_THEMES_DIR
 * gives it; without it each is skipped by name, the reason and how to get Dawn in that name.
 */

/** Dawn's folder, or undefined when SHOPIFY_THEMES_DIR is not set (a wrong one throws). */
export const DAWN_DIR = dawnDir();

export const DAWN_SKIPPED = `skipped: Dawn not found; ${DAWN_HOW_TO}`;

/** `describe` for Dawn's own tests: run with Dawn, else skipped with the reason in its name. */
export function describeWithDawn(name: string, tests: () => void): void {
  if (DAWN_DIR !== undefined) describe(name, tests);
  else {
    const skipped = `${name} (${DAWN_SKIPPED})`;
    // The default reporter names files, not suites: the reason is printed where it reads it.
    // eslint-disable-next-line no-console
    console.warn(`↓ ${skipped}`);
    describe.skip(skipped, tests);
  }
}
