import { z } from "zod";
import {
  DATABASE_URL_RULE,
  DEFAULT_DATABASE_URL,
  isSupportedDatabaseUrl,
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

  DATABASE_URL: databaseUrl.default(DEFAULT_DATABASE_URL),
  // PostgreSQL connections per process (SQLite has one). Keep it × processes below the
  // server's connection limit.
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: POOL_SIZE_RULE })
    .int({ error: POOL_SIZE_RULE })
    .min(1, { error: POOL_SIZE_RULE })
    .max(10_000, { error: POOL_SIZE_RULE })
    .default(10),

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
  // Time a client has to send its headers, and its whole request (slow senders hold memory).
  SVC_HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(10_000),
  SVC_HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  // App proxy token buckets: per shop, and per visitor (logged-in customer, else forwarded IP).
  SVC_PROXY_SHOP_RATE_PER_SECOND: z.coerce.number().min(0.1).max(100_000).default(200),
  SVC_PROXY_SHOP_BURST: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  SVC_PROXY_CLIENT_RATE_PER_SECOND: z.coerce.number().min(0.1).max(10_000).default(5),
  SVC_PROXY_CLIENT_BURST: z.coerce.number().int().min(1).max(100_000).default(120),
  // Shopify's answer to "is this variant the shop's?", kept in memory (decision 016).
  SVC_VARIANT_CHECK_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(3_600),
  SVC_VARIANT_CHECK_UNKNOWN_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  SVC_VARIANT_CHECK_MAX_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(50_000),
});

export type AppEnv = z.infer<typeof envSchema>;

// A production app that sent its Shopify calls anywhere but Shopify would leak access tokens.
const appEnvSchema = envSchema.superRefine((env, ctx) => {
  if (env.SHOPIFY_ADMIN_ORIGIN !== undefined && env.NODE_ENV === "production") {
    ctx.addIssue({
      code: "custom",
      path: ["SHOPIFY_ADMIN_ORIGIN"],
      message:
        "must not be set when NODE_ENV=production: it sends the app's Shopify calls to a local store",
    });
  }
});

export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

export function parseEnv(source: Record<string, string | undefined>): AppEnv {
  return parseWith(appEnvSchema, source);
}

/**
 * DATABASE_POOL_SIZE alone: CLI scripts and benchmarks create database clients without the
 * app's whole configuration, and must still stop on a malformed value with the same message.
 */
export function parseDatabasePoolSize(source: Record<string, string | undefined>): number {
  return parseWith(envSchema.pick({ DATABASE_POOL_SIZE: true }), source).DATABASE_POOL_SIZE;
}

/** The SVC_RECONCILE_* settings alone: the CLI reconciles a shop without the app's whole configuration. */
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

let cached: AppEnv | undefined;

export function getEnv(): AppEnv {
  cached ??= parseEnv(process.env);
  return cached;
}
