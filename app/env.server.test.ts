import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPrismaClient } from "./db/client.server";
import { ConfigurationError, parseDatabasePoolSize, parseEnv } from "./env.server";
import { repoRoot } from "../test/support/test-env";

const valid = {
  SHOPIFY_API_KEY: "client-id",
  SHOPIFY_API_SECRET: "client-secret",
  SHOPIFY_APP_URL: "https://app.example.com",
  SVC_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
  SVC_BASE_URL: "https://api.protection.example/",
};

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const env = parseEnv(valid);
    expect(env.DATABASE_URL).toBe("file:./prisma/dev.sqlite");
    expect(env.SVC_EVENTS_PATH).toBe("/events");
    expect(env.SVC_CHECKOUT_PATH).toBe("/cart_checkout");
    expect(env.SVC_REQUEST_TIMEOUT_MS).toBe(10_000);
    expect(env.SVC_STOREFRONT_TIMEOUT_MS).toBe(2_000);
    expect(env.SVC_PLANS_CACHE_TTL_SECONDS).toBe(60);
    expect(env.SVC_PLANS_CACHE_MAX_ENTRIES).toBe(5_000);
    expect(env.SVC_ENCRYPTION_KEY).toHaveLength(32);
    expect(env.DATABASE_POOL_SIZE).toBe(10);
  });

  it("accepts a hex encryption key and PostgreSQL URLs", () => {
    const env = parseEnv({
      ...valid,
      SVC_ENCRYPTION_KEY: "ab".repeat(32),
      DATABASE_URL: "postgres://u@db:5432/app",
    });
    expect(env.SVC_ENCRYPTION_KEY.toString("hex")).toBe("ab".repeat(32));
    expect(env.DATABASE_URL).toBe("postgres://u@db:5432/app");
  });

  it.each([
    ["SHOPIFY_API_SECRET", undefined, /SHOPIFY_API_SECRET is required/],
    ["SVC_ENCRYPTION_KEY", "too-short", /SVC_ENCRYPTION_KEY must be 32 random bytes/],
    ["SVC_BASE_URL", "ftp://x", /SVC_BASE_URL must be an http/],
    ["DATABASE_URL", "mysql://db/app", /DATABASE_URL must start with file:/],
    ["SVC_EVENTS_PATH", "/event", /SVC_EVENTS_PATH/],
    ["SVC_REQUEST_TIMEOUT_MS", "fast", /SVC_REQUEST_TIMEOUT_MS/],
    ["SVC_STOREFRONT_TIMEOUT_MS", "60000", /SVC_STOREFRONT_TIMEOUT_MS/],
    ["SVC_PLANS_CACHE_TTL_SECONDS", "-1", /SVC_PLANS_CACHE_TTL_SECONDS/],
    ["SVC_PLANS_CACHE_MAX_ENTRIES", "many", /SVC_PLANS_CACHE_MAX_ENTRIES/],
    ["DATABASE_POOL_SIZE", "0", /DATABASE_POOL_SIZE must be a whole number from 1 to 10000/],
    ["DATABASE_POOL_SIZE", "2.5", /DATABASE_POOL_SIZE must be a whole number/],
    ["DATABASE_POOL_SIZE", "ten", /DATABASE_POOL_SIZE must be a whole number/],
  ])("names %s when it is missing or malformed", (variable, value, message) => {
    expect(() => parseEnv({ ...valid, [variable]: value })).toThrow(message);
    expect(() => parseEnv({ ...valid, [variable]: value })).toThrow(ConfigurationError);
  });

  it("treats an empty value as unset", () => {
    expect(() => parseEnv({ ...valid, SHOPIFY_API_KEY: "" })).toThrow(
      /SHOPIFY_API_KEY is required/,
    );
  });

  it("lists every problem in one message", () => {
    expect(() => parseEnv({ SHOPIFY_APP_URL: "not a url" })).toThrow(
      /SHOPIFY_API_KEY is required.*SHOPIFY_API_SECRET is required.*SHOPIFY_APP_URL must be an http/,
    );
  });
});

describe("SHOPIFY_ADMIN_ORIGIN", () => {
  it("is optional, and an http(s) URL when set", () => {
    expect(parseEnv(valid).SHOPIFY_ADMIN_ORIGIN).toBeUndefined();
    expect(
      parseEnv({ ...valid, SHOPIFY_ADMIN_ORIGIN: "http://127.0.0.1:4020" }).SHOPIFY_ADMIN_ORIGIN,
    ).toBe("http://127.0.0.1:4020");
    expect(() => parseEnv({ ...valid, SHOPIFY_ADMIN_ORIGIN: "127.0.0.1:4020" })).toThrow(
      /SHOPIFY_ADMIN_ORIGIN must be an http/,
    );
  });

  it("is refused in production, with a message that names it", () => {
    expect(() =>
      parseEnv({ ...valid, NODE_ENV: "production", SHOPIFY_ADMIN_ORIGIN: "http://127.0.0.1:4020" }),
    ).toThrow(
      new ConfigurationError(
        "Invalid configuration: SHOPIFY_ADMIN_ORIGIN must not be set when NODE_ENV=production: it sends the app's Shopify calls to a local store",
      ),
    );
    expect(parseEnv({ ...valid, NODE_ENV: "production" }).SHOPIFY_ADMIN_ORIGIN).toBeUndefined();
    expect(
      parseEnv({ ...valid, NODE_ENV: "test", SHOPIFY_ADMIN_ORIGIN: "http://127.0.0.1:4020" })
        .NODE_ENV,
    ).toBe("test");
  });
});

describe("DATABASE_POOL_SIZE", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("is read through the env schema, by the app and alone by scripts", () => {
    expect(parseEnv({ ...valid, DATABASE_POOL_SIZE: "25" }).DATABASE_POOL_SIZE).toBe(25);
    expect(parseDatabasePoolSize({ DATABASE_POOL_SIZE: "25" })).toBe(25);
    expect(parseDatabasePoolSize({ DATABASE_POOL_SIZE: "" })).toBe(10);
    expect(parseDatabasePoolSize({})).toBe(10);
    expect(() => parseDatabasePoolSize({ DATABASE_POOL_SIZE: "-3" })).toThrow(
      new ConfigurationError(
        "Invalid configuration: DATABASE_POOL_SIZE must be a whole number from 1 to 10000",
      ),
    );
  });

  it("stops a script's PostgreSQL client on a malformed value instead of using 10", async () => {
    // A script creates its client without getEnv(); the pool size must still be checked.
    vi.stubEnv("DATABASE_POOL_SIZE", "lots");
    expect(() => createPrismaClient("postgresql://127.0.0.1:5432/unused")).toThrow(
      /DATABASE_POOL_SIZE must be a whole number/,
    );
    // The app's configured value wins over the environment and nothing is read from it.
    const client = createPrismaClient("postgresql://127.0.0.1:5432/unused", 5);
    await client.$disconnect();
  });
});

describe("start-up with a bad configuration", () => {
  it("stops with one clear message naming the variable, before touching the database", async () => {
    const result = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "server/start.ts"],
      {
        cwd: repoRoot,
        env: {
          NODE_ENV: "production",
          PATH: process.env.PATH,
          ...valid,
          SVC_ENCRYPTION_KEY: "not-a-key",
          DATABASE_URL: "file:/nonexistent/dir/x.sqlite",
        },
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect("code" in result && result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "Invalid configuration: SVC_ENCRYPTION_KEY must be 32 random bytes, as 64 hex characters or base64 (openssl rand -base64 32)",
    );
  });
});
