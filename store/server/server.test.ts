import { afterEach, describe, expect, it, vi } from "vitest";
import { buildStore } from "./server";

describe("buildStore", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("refuses to start under NODE_ENV=production: it mints session tokens and frames the app", () => {
    vi.stubEnv("NODE_ENV", "production");
    expect(() => buildStore()).toThrow(/development and tests; NODE_ENV is production/);
  });

  it("starts in development", async () => {
    vi.stubEnv("NODE_ENV", "development");
    const { app } = buildStore();
    await app.close();
  });
});
