import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPrismaClient } from "./db/client.server";
import {
  ConfigurationError,
  knownSvcVariables,
  parseDatabasePoolSize,
  parseEnv,
  parseMigrationEnv,
  TOOLING_SVC_VARIABLES,
  unknownSettingWarning,
  unknownSvcVariables,
} from "./env.server";
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
      parseEnv({
        ...valid,
        NODE_ENV: "production",
        DATABASE_URL: "file:/data/app.sqlite",
        SHOPIFY_ADMIN_ORIGIN: "http://127.0.0.1:4020",
      }),
    ).toThrow(
      new ConfigurationError(
        "Invalid configuration: SHOPIFY_ADMIN_ORIGIN must not be set when NODE_ENV=production: it sends the app's Shopify calls to a local store",
      ),
    );
    expect(
      parseEnv({ ...valid, NODE_ENV: "production", DATABASE_URL: "file:/data/app.sqlite" })
        .SHOPIFY_ADMIN_ORIGIN,
    ).toBeUndefined();
    expect(
      parseEnv({ ...valid, NODE_ENV: "test", SHOPIFY_ADMIN_ORIGIN: "http://127.0.0.1:4020" })
        .NODE_ENV,
    ).toBe("test");
  });
});

describe("production (decision 038)", () => {
  const production = {
    ...valid,
    NODE_ENV: "production",
    DATABASE_URL: "postgresql://app:secret@db:5432/app",
  };

  it("accepts a complete production configuration", () => {
    const env = parseEnv(production);
    expect(env.DATABASE_URL).toBe("postgresql://app:secret@db:5432/app");
    expect(env.SVC_MIGRATE_ON_START).toBe(true);
    expect(env.SVC_MIGRATION_LOCK_TIMEOUT_SECONDS).toBe(60);
    expect(env.SVC_MIGRATION_TABLE_LOCK_TIMEOUT_SECONDS).toBe(10);
    expect(env.DIRECT_DATABASE_URL).toBeUndefined();
  });

  it("requires DATABASE_URL, which development and tests default to a SQLite file", () => {
    const { DATABASE_URL: _url, ...withoutUrl } = production;
    expect(() => parseEnv(withoutUrl)).toThrow(
      /^Invalid configuration: DATABASE_URL is required when NODE_ENV=production: file:/,
    );
    expect(() => parseEnv({ ...withoutUrl, DATABASE_URL: "" })).toThrow(
      /DATABASE_URL is required when NODE_ENV=production/,
    );
    for (const NODE_ENV of ["development", "test"]) {
      expect(parseEnv({ ...withoutUrl, NODE_ENV }).DATABASE_URL).toBe("file:./prisma/dev.sqlite");
    }
    expect(parseMigrationEnv({ NODE_ENV: "development" }).DATABASE_URL).toBe(
      "file:./prisma/dev.sqlite",
    );
    expect(() => parseMigrationEnv({ NODE_ENV: "production" })).toThrow(
      /DATABASE_URL is required when NODE_ENV=production/,
    );
  });

  it("requires https for SHOPIFY_APP_URL and SVC_BASE_URL, except on this machine", () => {
    expect(() => parseEnv({ ...production, SHOPIFY_APP_URL: "http://app.example.com" })).toThrow(
      "SHOPIFY_APP_URL must be an https:// URL when NODE_ENV=production (http:// only for localhost or 127.0.0.1)",
    );
    expect(() =>
      parseEnv({ ...production, SVC_BASE_URL: "http://api.protection.example/" }),
    ).toThrow(/SVC_BASE_URL must be an https:\/\/ URL when NODE_ENV=production/);
    for (const loopback of ["http://127.0.0.1:4010/", "http://localhost:3000", "http://[::1]:80"]) {
      expect(
        parseEnv({ ...production, SHOPIFY_APP_URL: loopback, SVC_BASE_URL: loopback }),
      ).toMatchObject({ SHOPIFY_APP_URL: loopback, SVC_BASE_URL: loopback });
    }
    // A name that only starts like a loopback address is another host.
    expect(() =>
      parseEnv({ ...production, SHOPIFY_APP_URL: "http://127.0.0.1.attacker.example" }),
    ).toThrow(/SHOPIFY_APP_URL must be an https/);
    expect(
      parseEnv({ ...valid, NODE_ENV: "development", SHOPIFY_APP_URL: "http://app.example.com" })
        .SHOPIFY_APP_URL,
    ).toBe("http://app.example.com");
  });

  it("takes a direct migration URL only beside a PostgreSQL DATABASE_URL", () => {
    const direct = "postgresql://app:secret@db-primary:5432/app";
    expect(parseEnv({ ...production, DIRECT_DATABASE_URL: direct }).DIRECT_DATABASE_URL).toBe(
      direct,
    );
    expect(() =>
      parseEnv({
        ...production,
        DATABASE_URL: "file:/data/app.sqlite",
        DIRECT_DATABASE_URL: direct,
      }),
    ).toThrow(/DIRECT_DATABASE_URL is for PostgreSQL behind a pooler/);
    expect(() => parseEnv({ ...production, DIRECT_DATABASE_URL: "mysql://db/app" })).toThrow(
      /DIRECT_DATABASE_URL must start with file:/,
    );
  });

  it("reads the migration settings", () => {
    const env = parseEnv({
      ...production,
      SVC_MIGRATE_ON_START: "false",
      SVC_MIGRATION_LOCK_TIMEOUT_SECONDS: "5",
      SVC_MIGRATION_TABLE_LOCK_TIMEOUT_SECONDS: "2",
    });
    expect(env).toMatchObject({
      SVC_MIGRATE_ON_START: false,
      SVC_MIGRATION_LOCK_TIMEOUT_SECONDS: 5,
      SVC_MIGRATION_TABLE_LOCK_TIMEOUT_SECONDS: 2,
    });
    expect(() => parseEnv({ ...production, SVC_MIGRATE_ON_START: "off" })).toThrow(
      'SVC_MIGRATE_ON_START must be "true" or "false"',
    );
    expect(() => parseEnv({ ...production, SVC_MIGRATION_LOCK_TIMEOUT_SECONDS: "0" })).toThrow(
      /SVC_MIGRATION_LOCK_TIMEOUT_SECONDS/,
    );
  });

  it("serves metrics only on a port of their own, off unless set (decision 047)", () => {
    expect(parseEnv(production).SVC_METRICS_PORT).toBeUndefined();
    expect(parseEnv(production)).toMatchObject({
      SVC_METRICS_HOST: "127.0.0.1",
      SVC_METRICS_DB_INTERVAL_SECONDS: 15,
    });
    expect(parseEnv({ ...production, PORT: "3000", SVC_METRICS_PORT: "9464" })).toMatchObject({
      SVC_METRICS_PORT: 9464,
    });
    expect(() => parseEnv({ ...production, PORT: "3000", SVC_METRICS_PORT: "3000" })).toThrow(
      "SVC_METRICS_PORT must differ from PORT",
    );
  });
});

describe("unknown SVC_ variables", () => {
  it("are named, with the setting they resemble", () => {
    const unknown = unknownSvcVariables({
      ...valid,
      SVC_OUTBOX_CONCURENCY: "4",
      SVC_MIGRATE_ON_STRAT: "false",
      SVC_SOMETHING_ELSE: "1",
      SVC_LOCAL_DEMO: "off",
      OTHER_VARIABLE: "x",
    });
    expect(unknown).toEqual([
      { name: "SVC_MIGRATE_ON_STRAT", suggestion: "SVC_MIGRATE_ON_START" },
      { name: "SVC_OUTBOX_CONCURENCY", suggestion: "SVC_OUTBOX_CONCURRENCY" },
      { name: "SVC_SOMETHING_ELSE" },
    ]);
    expect(unknownSettingWarning(unknown[1]!)).toBe(
      "Warning: SVC_OUTBOX_CONCURENCY is not a setting of this app and is ignored: did you mean SVC_OUTBOX_CONCURRENCY?",
    );
    expect(unknownSettingWarning(unknown[2]!)).toBe(
      "Warning: SVC_SOMETHING_ELSE is not a setting of this app and is ignored (see .env.example for the settings)",
    );
    expect(unknownSvcVariables(valid)).toEqual([]);
  });

  // The tests spell this one wrong on purpose.
  const deliberateMisspellings = new Set([
    "SVC_OUTBOX_CONCURENCY",
    "SVC_MIGRATE_ON_STRAT",
    "SVC_SOMETHING_ELSE",
  ]);

  /** Every SVC_ name the repository's code, scripts and configuration read or set. */
  function svcNamesInSources(): Map<string, string> {
    const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], {
      cwd: repoRoot,
      encoding: "utf8",
    })
      .split("\n")
      .filter((file) =>
        /\.(ts|tsx|js|mjs|cjs|sh|ya?ml|toml|json)$|(^|\/)(Dockerfile|Procfile|\.env\.example)$/.test(
          file,
        ),
      )
      .filter((file) => !file.startsWith("test/fixtures/") && file !== "package-lock.json");
    const reads = [
      // process.env.SVC_…, env.SVC_…, env["SVC_…"]
      /\benv(?:\.|\[["'])(SVC_[A-Z0-9_]*[A-Z0-9])\b/gi,
      // $SVC_… and ${SVC_…} in shell
      /\$\{?(SVC_[A-Z0-9_]*[A-Z0-9])\b/g,
      // SVC_…=value (shell, .env, Dockerfile, Procfile) and SVC_…: value (an env object, YAML)
      /(?<![\w.$])(SVC_[A-Z0-9_]*[A-Z0-9])(?:=|:\s)/g,
    ];
    const found = new Map<string, string>();
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(path.join(repoRoot, file), "utf8");
      } catch {
        continue; // listed by git, deleted in the working tree
      }
      for (const pattern of reads) {
        for (const [, name] of text.matchAll(pattern)) {
          if (!found.has(name!)) found.set(name!, file);
        }
      }
    }
    return found;
  }

  it("are none of the names the app, the stand-ins and the tooling read", () => {
    const known = knownSvcVariables();
    const names = svcNamesInSources();
    expect(names.size).toBeGreaterThan(20);
    const unlisted = [...names]
      .filter(([name]) => !known.includes(name) && !deliberateMisspellings.has(name))
      .map(([name, file]) => `${name} (${file})`);
    // A new SVC_ variable read outside envSchema goes into TOOLING_SVC_VARIABLES.
    expect(unlisted).toEqual([]);
    // And a name nothing reads any more leaves the list.
    const unread = TOOLING_SVC_VARIABLES.filter((name) => !names.has(name));
    expect(unread).toEqual([]);
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
