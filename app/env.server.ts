import { z } from "zod";
import {
  DATABASE_URL_RULE,
  DEFAULT_DATABASE_URL,
  isSupportedDatabaseUrl,
  providerOf,
} from "./lib/database-url";

/**
 * The app's whole configuration, read from the process environment and checked once at
 * boot. A missing or malformed variable stops start-up with one message that names it.
 */

const databaseUrl = z
  .string()
  .trim()
  .refine(isSupportedDatabaseUrl, { message: DATABASE_URL_RULE });

export const encryptionKey = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const bytes = /^[0-9a-fA-F]{64}$/.test(value)
      ? Buffer.from(value, "hex")
      : Buffer.from(value, "base64");
    if (bytes.length !== 32) {
      ctx.addIssue({
        code: "custom",
        message:
          "must be 32 random bytes, as 64 hex characters or base64 (openssl rand -base64 32)",
      });
      return z.NEVER;
    }
    return bytes;
  });

/**
 * Earlier encryption keys, comma-separated (spaces and new lines also separate). Each still opens
 * what it sealed until `npm run svc -- keys:reseal` has moved every value to the current key.
 */
export const encryptionKeyList = z
  .string()
  .transform((value) => value.split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(encryptionKey));

const httpUrl = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "must be an http:// or https:// URL",
  });

const POOL_SIZE_RULE = "must be a whole number from 1 to 10000";

/**
 * A host only this machine reaches: Shopify and the internet cannot, so plain http to it carries
 * nothing over a network. Production benchmarks and release tests boot on one machine like this.
 */
export function isLoopbackUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const host = new URL(value).hostname;
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

  SHOPIFY_API_KEY: z.string().trim().min(1, "is required (the app's client ID)"),
  SHOPIFY_API_SECRET: z.string().trim().min(1, "is required (the app's client secret)"),
  SHOPIFY_APP_URL: httpUrl,
  SCOPES: z
    .string()
    .trim()
    .default(
      "read_orders,write_orders,read_products,write_products,write_publications,write_order_edits",
    ),
  SHOP_CUSTOM_DOMAIN: z.string().trim().optional(),
  // Development and tests only: the local Shopify store (`npm run store`) that the app's calls to
  // https://{shop}/admin/... are sent to (decision 021). Refused in production.
  SHOPIFY_ADMIN_ORIGIN: httpUrl.optional(),

  // Required in production; development and tests default to a SQLite file in the project.
  DATABASE_URL: databaseUrl.optional(),
  // PostgreSQL without a pooler in between, for migrations only (decision 039): the app's pool
  // may go through PgBouncer in transaction mode, where a migration's session is not its own.
  DIRECT_DATABASE_URL: databaseUrl.optional(),
  // PostgreSQL connections per process (SQLite has one). Keep it × processes below the
  // server's connection limit.
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: POOL_SIZE_RULE })
    .int({ error: POOL_SIZE_RULE })
    .min(1, { error: POOL_SIZE_RULE })
    .max(10_000, { error: POOL_SIZE_RULE })
    .default(10),

  // Migrations (decision 039). "true": every start applies pending migrations (one instance).
  // "false": `npm run db:migrate` is the release step, and a start with one pending refuses.
  SVC_MIGRATE_ON_START: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .default("true")
    .transform((value) => value === "true"),
  // How long a migration run waits for another run's lock, and a migration for a table's lock.
  SVC_MIGRATION_LOCK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  SVC_MIGRATION_TABLE_LOCK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(10),

  SVC_ENCRYPTION_KEY: encryptionKey,
  // Keys before the last rotations: still open secrets sealed with them (decision 017).
  // SVC_ENCRYPTION_KEY_PREVIOUS is the older, single-key spelling and keeps working.
  SVC_ENCRYPTION_KEYS_PREVIOUS: encryptionKeyList.default([]),
  SVC_ENCRYPTION_KEY_PREVIOUS: encryptionKey.optional(),
  SVC_BASE_URL: httpUrl,
  SVC_EVENTS_PATH: z.enum(["/events", "/orders"]).default("/events"),
  SVC_CHECKOUT_PATH: z.enum(["/cart_checkout", "/orders"]).default("/cart_checkout"),
  SVC_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // The app proxy (storefront) waits less than the outbox: a product page must not hang on the
  // service. Plan answers are cached per shop, environment, variant, price and currency.
  SVC_STOREFRONT_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(2_000),
  SVC_PLANS_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  SVC_PLANS_CACHE_MAX_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(5_000),

  // "embedded": the web server also delivers outbox events (the default, and the only choice
  // on SQLite). "off": run `npm run worker` processes instead (PostgreSQL, for scale).
  SVC_OUTBOX_WORKER: z.enum(["embedded", "off"]).default("embedded"),
  SVC_OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  SVC_OUTBOX_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000).default(100),
  SVC_OUTBOX_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  // Prometheus metrics (issue 28, decision 047) on their own port, never the app's: unset, off.
  SVC_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // The metrics port's address: loopback unless a scraper elsewhere must reach it ("0.0.0.0").
  SVC_METRICS_HOST: z.string().trim().min(1).default("127.0.0.1"),
  // How often the process that runs the workers refreshes the database gauges (not per scrape).
  SVC_METRICS_DB_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(15),
  // Reconciliation (issue 17, decision 029): each connected shop's orders are compared with the
  // outbox this often; 0 switches the schedule off ("Reconcile now" and the CLI still work).
  SVC_RECONCILE_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(1_440).default(15),
  // How often the worker looks for due runs, requested runs and backfill steps.
  SVC_RECONCILE_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(30_000),
  // Each run reads back this far before the watermark: clock skew and late writes.
  SVC_RECONCILE_OVERLAP_MINUTES: z.coerce.number().int().min(0).max(1_440).default(5),
  // Orders updated this recently are left for the next run: their webhooks are on the way.
  SVC_RECONCILE_SETTLE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
  // An order edit is recovered only this long after it happened: its webhook may come until then.
  SVC_RECONCILE_EDIT_SETTLE_MINUTES: z.coerce.number().int().min(0).max(10_080).default(240),
  // The share of the shop's Admin API bucket reconciliation may use; the rest stays free for
  // the merchant's other apps and the app's own actions.
  SVC_RECONCILE_BUCKET_SHARE: z.coerce.number().min(0.05).max(1).default(0.5),
  // Runs in a row that recover events before the admin warns of lost webhooks.
  SVC_RECONCILE_WARN_AFTER_RUNS: z.coerce.number().int().min(1).max(100).default(3),
  // Order webhooks waiting for the database at once; beyond it a delivery gets 503 (decision 009).
  SVC_WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(256),
  // Days a delivered or dead event and a webhook receipt keep the customer's personal data;
  // after that `data:purge` (and the worker) scrub it and keep the rows (decision 015).
  SVC_CUSTOMER_DATA_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(90),
  // Days after which delivered and dead events, their attempts and processed receipts are deleted,
  // by the retention worker every 6 hours or `data:purge` (issue 28, decision 049).
  SVC_EVENT_RETENTION_DAYS: z.coerce.number().int().min(7).max(3_650).default(180),
  // Rows deleted per transaction by retention, and the pause between two batches, so that the
  // deletion never holds the tables the webhook path writes to for long.
  SVC_RETENTION_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  SVC_RETENTION_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  // shop/redact is acted on only once the shop's app/uninstalled is this many hours old (Shopify
  // sends it 48 hours after the uninstall); an earlier one, or one for an installed shop, is
  // recorded and ignored: its signed body never expires, so it may be a replay (decision 045).
  SVC_SHOP_REDACT_AFTER_UNINSTALL_HOURS: z.coerce.number().int().min(1).max(47).default(24),
  // The public edge (decision 016). Request bodies are capped per route before they are read,
  // and all bodies being read at once share one byte budget (503 beyond it).
  SVC_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(64 * 2 ** 20)
    .default(2 ** 20),
  SVC_ORDER_WEBHOOK_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(64 * 2 ** 20)
    .default(8 * 2 ** 20),
  SVC_BODY_BUDGET_BYTES: z.coerce
    .number()
    .int()
    .min(65_536)
    .max(2 ** 30)
    .default(48 * 2 ** 20),
  // Part of the body budget only requests carrying Shopify's webhook headers may use, and how
  // much of it the deliveries from one address may hold (decision 041).
  SVC_WEBHOOK_BODY_RESERVE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 30)
    .default(16 * 2 ** 20),
  SVC_WEBHOOK_RESERVE_PER_SOURCE_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(2 ** 30)
    .default(8 * 2 ** 20),
  // Unauthenticated bodies one address (the socket's) may be sending at once; beyond it, 429.
  SVC_BODIES_PER_SOURCE: z.coerce.number().int().min(1).max(10_000).default(8),
  // A body must keep arriving at this rate, measured over each window after the headers; a
  // sender below it is cut off with 408 and its bytes are freed (decision 041).
  SVC_BODY_MIN_BYTES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 30)
    .default(16_384),
  SVC_BODY_RATE_WINDOW_MS: z.coerce.number().int().min(200).max(120_000).default(5_000),
  // Time a client has to send its headers, and its whole request (slow senders hold memory).
  SVC_HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(10_000),
  SVC_HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  // After SIGTERM the web server answers /readyz 503 and keeps serving this long, so that a load
  // balancer stops sending to it before its port closes; then it finishes what is in flight (048).
  SVC_SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  // App proxy token buckets: per shop, and per visitor (logged-in customer, else forwarded IP).
  SVC_PROXY_SHOP_RATE_PER_SECOND: z.coerce.number().min(0.1).max(100_000).default(200),
  SVC_PROXY_SHOP_BURST: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  SVC_PROXY_CLIENT_RATE_PER_SECOND: z.coerce.number().min(0.1).max(10_000).default(5),
  SVC_PROXY_CLIENT_BURST: z.coerce.number().int().min(1).max(100_000).default(120),
  // Shopify's answer to "is this variant the shop's?", kept in memory (decision 016).
  SVC_VARIANT_CHECK_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(3_600),
  SVC_VARIANT_CHECK_UNKNOWN_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  SVC_VARIANT_CHECK_MAX_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(50_000),
  // Proxies of our own (load balancer, CDN) before the app: X-Forwarded-For is trusted that many
  // entries from the right; 0 takes the socket's address (decision 043).
  SVC_TRUSTED_PROXY_COUNT: z.coerce.number().int().min(0).max(10).default(0),
  // The buyer routes' share of each shop's Admin API: calls per second and burst (decision 043).
  SVC_BUYER_ADMIN_RATE_PER_SECOND: z.coerce.number().min(0.01).max(1_000).default(1),
  SVC_BUYER_ADMIN_BURST: z.coerce.number().int().min(1).max(10_000).default(20),
});

type ProductionRules = Pick<z.infer<typeof envSchema>, "NODE_ENV"> &
  Partial<
    Pick<
      z.infer<typeof envSchema>,
      | "DATABASE_URL"
      | "DIRECT_DATABASE_URL"
      | "SHOPIFY_APP_URL"
      | "SHOPIFY_ADMIN_ORIGIN"
      | "SVC_BASE_URL"
    >
  >;

/** What production refuses that development and tests allow (decision 038). */
function checkProductionRules(env: ProductionRules, ctx: z.RefinementCtx) {
  if (env.DIRECT_DATABASE_URL !== undefined) {
    // Refinements also run on values that failed their own check: those are reported already.
    const both = [env.DATABASE_URL ?? DEFAULT_DATABASE_URL, env.DIRECT_DATABASE_URL];
    const supported = both.every(isSupportedDatabaseUrl);
    if (supported && !both.every((url) => providerOf(url) === "postgresql")) {
      ctx.addIssue({
        code: "custom",
        path: ["DIRECT_DATABASE_URL"],
        message:
          "is for PostgreSQL behind a pooler: set it only when DATABASE_URL and it are both postgresql:// URLs",
      });
    }
  }
  if (env.NODE_ENV !== "production") return;
  if (env.DATABASE_URL === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["DATABASE_URL"],
      message:
        "is required when NODE_ENV=production: file:/path/on/a/volume.sqlite (one instance) or postgresql://user:password@host:5432/db",
    });
  }
  // A production app that sent its Shopify calls anywhere but Shopify would leak access tokens.
  if (env.SHOPIFY_ADMIN_ORIGIN !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["SHOPIFY_ADMIN_ORIGIN"],
      message:
        "must not be set when NODE_ENV=production: it sends the app's Shopify calls to a local store",
    });
  }
  // Session tokens, OAuth codes and the service's secret keys cross these URLs.
  for (const variable of ["SHOPIFY_APP_URL", "SVC_BASE_URL"] as const) {
    const value = env[variable];
    if (value === undefined || !URL.canParse(value)) continue;
    if (new URL(value).protocol === "https:" || isLoopbackUrl(value)) continue;
    ctx.addIssue({
      code: "custom",
      path: [variable],
      message:
        "must be an https:// URL when NODE_ENV=production (http:// only for localhost or 127.0.0.1)",
    });
  }
}

const appEnvSchema = envSchema
  .superRefine(checkProductionRules)
  .superRefine((env, ctx) => {
    if (env.SVC_METRICS_PORT === env.PORT) {
      ctx.addIssue({
        code: "custom",
        path: ["SVC_METRICS_PORT"],
        message: "must differ from PORT: metrics are never served on the app's public port",
      });
    }
  })
  .transform((env) => ({ ...env, DATABASE_URL: env.DATABASE_URL ?? DEFAULT_DATABASE_URL }));

export type AppEnv = z.output<typeof appEnvSchema>;

const migrationEnvSchema = envSchema
  .pick({
    NODE_ENV: true,
    DATABASE_URL: true,
    DIRECT_DATABASE_URL: true,
    SVC_MIGRATION_LOCK_TIMEOUT_SECONDS: true,
    SVC_MIGRATION_TABLE_LOCK_TIMEOUT_SECONDS: true,
  })
  .superRefine(checkProductionRules)
  .transform((env) => ({ ...env, DATABASE_URL: env.DATABASE_URL ?? DEFAULT_DATABASE_URL }));

export type MigrationEnv = z.output<typeof migrationEnvSchema>;

export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

export function parseEnv(source: Record<string, string | undefined>): AppEnv {
  return parseWith(appEnvSchema, source);
}

/**
 * What `npm run db:migrate` needs, the release step: the database settings, with the app's
 * production rules for them, and not the Shopify or service credentials.
 */
export function parseMigrationEnv(source: Record<string, string | undefined>): MigrationEnv {
  return parseWith(migrationEnvSchema, source);
}

/**
 * DATABASE_POOL_SIZE alone: CLI scripts and benchmarks create database clients without the
 * app's whole configuration, and must still stop on a malformed value with the same message.
 */
export function parseDatabasePoolSize(source: Record<string, string | undefined>): number {
  return parseWith(envSchema.pick({ DATABASE_POOL_SIZE: true }), source).DATABASE_POOL_SIZE;
}

/** The SVC_RECONCILE_* settings alone: the CLI reconciles a shop without the app's whole configuration. */
/** What retention (decision 049) reads: the CLI's `data:purge` reads only these. */
export function parseRetentionEnv(source: Record<string, string | undefined>) {
  return parseWith(
    envSchema.pick({
      SVC_CUSTOMER_DATA_RETENTION_DAYS: true,
      SVC_EVENT_RETENTION_DAYS: true,
      SVC_RETENTION_BATCH_SIZE: true,
      SVC_RETENTION_PAUSE_MS: true,
    }),
    source,
  );
}

export function parseReconcileEnv(source: Record<string, string | undefined>) {
  return parseWith(
    envSchema.pick({
      SVC_RECONCILE_INTERVAL_MINUTES: true,
      SVC_RECONCILE_OVERLAP_MINUTES: true,
      SVC_RECONCILE_SETTLE_SECONDS: true,
      SVC_RECONCILE_EDIT_SETTLE_MINUTES: true,
      SVC_RECONCILE_BUCKET_SHARE: true,
      SVC_RECONCILE_WARN_AFTER_RUNS: true,
    }),
    source,
  );
}

function parseWith<T extends z.ZodType>(
  schema: T,
  source: Record<string, string | undefined>,
): z.infer<T> {
  // An empty string in a .env file means "not set", so defaults still apply.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = schema.safeParse(present);
  if (result.success) return result.data;

  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.join(".") || "(environment)";
    const message =
      issue.code === "invalid_type" && present[variable] === undefined
        ? "is required"
        : issue.message;
    return `${variable} ${message}`;
  });
  throw new ConfigurationError(`Invalid configuration: ${problems.join("; ")}`);
}

/**
 * SVC_ variables that are read outside this schema: by the local Shopify store and the service
 * emulator (their own packages), and by development and test tooling. A test scans the
 * repository's sources so that this list and the code that reads them stay in step.
 */
export const TOOLING_SVC_VARIABLES = [
  "SVC_STORE_PORT",
  "SVC_STORE_APP_CONFIG",
  "SVC_STORE_WEBHOOK_RETRY_DELAYS_MS",
  "SVC_STORE_WEBHOOK_TIMEOUT_MS",
  "SVC_EMULATOR_PORT",
  "SVC_EMULATOR_SANDBOX_KEY",
  "SVC_EMULATOR_LIVE_KEY",
  "SVC_EMULATOR_CATALOGUE",
  "SVC_LOCAL_DEMO",
  "SVC_UPDATE_SCREENSHOTS",
  "SVC_CHROMIUM_PATH",
  "SVC_PROMTOOL_PATH",
  "SVC_NODE_HEADERS",
  "SVC_SMOKE_TIMEOUT_S",
  "SVC_TEST_POSTGRES",
  "SVC_EMBEDDED_POSTGRES_PORT",
  "SVC_BARE_CLONE_KEEP",
] as const;

export function knownSvcVariables(): string[] {
  const appSettings = Object.keys(envSchema.shape).filter((name) => name.startsWith("SVC_"));
  return [...appSettings, ...TOOLING_SVC_VARIABLES];
}

export interface UnknownSetting {
  name: string;
  /** The known name it most resembles, when it is close enough to be a slip of the keyboard. */
  suggestion?: string;
}

/** SVC_ variables set in `source` that nothing reads: most often a misspelled setting. */
export function unknownSvcVariables(source: Record<string, string | undefined>): UnknownSetting[] {
  const known = knownSvcVariables();
  return Object.keys(source)
    .filter((name) => name.startsWith("SVC_") && !known.includes(name))
    .sort()
    .map((name) => {
      const [nearest] = known
        .map((candidate) => ({ candidate, distance: editDistance(name, candidate) }))
        .sort((a, b) => a.distance - b.distance);
      return nearest && nearest.distance <= Math.max(2, Math.floor(name.length / 6))
        ? { name, suggestion: nearest.candidate }
        : { name };
    });
}

export function unknownSettingWarning({ name, suggestion }: UnknownSetting): string {
  return (
    `Warning: ${name} is not a setting of this app and is ignored` +
    (suggestion ? `: did you mean ${suggestion}?` : " (see .env.example for the settings)")
  );
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}

let cached: AppEnv | undefined;

export function getEnv(): AppEnv {
  cached ??= parseEnv(process.env);
  return cached;
}
