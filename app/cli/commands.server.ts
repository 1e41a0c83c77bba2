import { readFile } from "node:fs/promises";
import { createSecretBox, type SecretBox } from "../crypto/secret-box.server";
import { encryptionKeysOf } from "../crypto/secrets.server";
import type { AppPrismaClient } from "../db/client.server";
import {
  DATABASE_URL_RULE,
  DEFAULT_DATABASE_URL,
  isSupportedDatabaseUrl,
} from "../lib/database-url";
import { encryptionKey, encryptionKeyList } from "../env.server";
import {
  countOutboxEventsByStatus,
  findOldestOpenEvent,
  listOutboxEvents,
  retryDeadEvents,
  retryOutboxEvent,
} from "../models/OutboxEvent.server";
import {
  getShopConnection,
  keyNameOf,
  saveConnectionKeys,
  toPublicConnection,
  type ConnectionKeysInput,
  type PublicConnection,
} from "../models/ShopConnection.server";
import { OUTBOX_STATUSES } from "../models/outbox-status";
import { runRetention, retentionSettingsOf } from "../privacy/retention.server";
import {
  CliError,
  EXIT,
  isHttpUrl,
  UsageError,
  type CliCommand,
  type ExitCode,
  type SecretKeySource,
} from "./args";
import { resealStoredSecrets } from "./reseal.server";
import { shopifyWebhookHeaders } from "./sign-webhook";
import { parseReconcileEnv, parseRetentionEnv } from "../env.server";
import { formatAge, readFleetStats } from "./stats.server";
import {
  claimReconcileLease,
  ensureReconcileState,
  releaseReconcileLease,
} from "../models/ReconcileState.server";
import type { AdminForShop } from "../plan-actions/worker.server";
import { reconcileSettingsOf, runReconciliation } from "../reconcile/run.server";

/** The process environment, or what a test passes instead. Each command reads what it needs. */
export type CliEnv = Record<string, string | undefined>;

export interface CliContext {
  db: AppPrismaClient;
  env: CliEnv;
  /** Results, one line at a time (stdout). */
  out: (line: string) => void;
  /** Why a command failed, or a warning, one line without the "svc: " prefix (stderr). */
  err: (message: string) => void;
  /** Standard input, read to its end; only shop:connect --secret-key-stdin reads it. */
  readStdin?: () => Promise<string>;
  fetch?: typeof fetch;
  /** The shop's Admin API through its offline session; read only by commands that call Shopify. */
  adminFor?: AdminForShop;
}

type CommandName = CliCommand["name"];
type Command<Name extends CommandName> = Extract<CliCommand, { name: Name }>;
type CommandHandler<Name extends CommandName> = (
  command: Command<Name>,
  context: CliContext,
) => Promise<ExitCode>;

const WEBHOOK_TIMEOUT_MS = 30_000;
const LAST_ERROR_WIDTH = 60;

/** Runs one parsed command. Expected failures are reported through `err` and an exit code. */
export async function runCommand(command: CliCommand, context: CliContext): Promise<ExitCode> {
  try {
    return await handlerOf(command.name)(command, context);
  } catch (error) {
    if (error instanceof CliError) {
      context.err(error.message);
      return error.exitCode;
    }
    context.err(`${command.name} failed: ${describeError(error)}`);
    return EXIT.failed;
  }
}

/** What runs each command. */
const COMMAND_HANDLERS: { [Name in CommandName]: CommandHandler<Name> } = {
  "shop:connect": connectShop,
  "shop:status": showShopStatus,
  "webhook:send": sendWebhook,
  "events:list": listEvents,
  "events:retry": retryEvents,
  "keys:reseal": resealKeys,
  "data:purge": purgeCustomerData,
  stats: showStats,
  "shop:reconcile": reconcileShop,
};

function handlerOf<Name extends CommandName>(name: Name): CommandHandler<Name> {
  return COMMAND_HANDLERS[name];
}

/** DATABASE_URL as the app reads it, with the same default. */
export function cliDatabaseUrl(env: CliEnv): string {
  const url = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  if (!isSupportedDatabaseUrl(url)) throw new UsageError(`DATABASE_URL ${DATABASE_URL_RULE}`);
  return url;
}

/**
 * Seals with SVC_ENCRYPTION_KEY and opens with it and the earlier keys (SVC_ENCRYPTION_KEYS_PREVIOUS,
 * SVC_ENCRYPTION_KEY_PREVIOUS), each checked by the same rule as the app's configuration.
 */
function secretBoxFrom(env: CliEnv, command: string): SecretBox {
  const value = env.SVC_ENCRYPTION_KEY?.trim();
  if (!value) {
    throw new UsageError(`SVC_ENCRYPTION_KEY is required for ${command} (the app's key)`);
  }
  const current = encryptionKey.safeParse(value);
  if (!current.success) {
    throw new UsageError(`SVC_ENCRYPTION_KEY ${current.error.issues[0]?.message ?? "is invalid"}`);
  }
  const list = encryptionKeyList.safeParse(env.SVC_ENCRYPTION_KEYS_PREVIOUS ?? "");
  if (!list.success) {
    throw new UsageError(
      `SVC_ENCRYPTION_KEYS_PREVIOUS ${list.error.issues[0]?.message ?? "is invalid"} (each of its comma-separated keys)`,
    );
  }
  const single = env.SVC_ENCRYPTION_KEY_PREVIOUS?.trim();
  const previous = single ? encryptionKey.safeParse(single) : undefined;
  if (previous && !previous.success) {
    throw new UsageError(
      `SVC_ENCRYPTION_KEY_PREVIOUS ${previous.error.issues[0]?.message ?? "is invalid"}`,
    );
  }
  return createSecretBox(
    encryptionKeysOf({
      SVC_ENCRYPTION_KEY: current.data,
      SVC_ENCRYPTION_KEYS_PREVIOUS: list.data,
      SVC_ENCRYPTION_KEY_PREVIOUS: previous?.data,
    }),
  );
}

export const INLINE_SECRET_KEY_WARNING =
  "warning: --secret-key <key> shows the key in ps and in your shell's history: use --secret-key-file <path>, --secret-key-stdin or --secret-key-env <VARIABLE> instead";

/**
 * The secret key from where the command line said (issue 27, defect 10). Whitespace around it
 * (a file's or a pipe's final new line) is dropped; a source holding nothing else is refused.
 */
export async function readSecretKey(
  source: SecretKeySource,
  { env, err, readStdin }: Pick<CliContext, "env" | "err" | "readStdin">,
): Promise<string> {
  let text: string | undefined;
  let origin: string;
  switch (source.from) {
    case "inline":
      err(INLINE_SECRET_KEY_WARNING);
      return source.value;
    case "env":
      origin = `${source.variable} (--secret-key-env)`;
      text = env[source.variable];
      if (text === undefined) throw new UsageError(`${origin} is not set`);
      break;
    case "file":
      origin = `--secret-key-file ${source.path}`;
      try {
        text = await readFile(source.path, "utf8");
      } catch (error) {
        throw new UsageError(`${origin} cannot be read: ${describeError(error)}`);
      }
      break;
    case "stdin":
      origin = "standard input (--secret-key-stdin)";
      if (!readStdin) throw new UsageError(`${origin} is not available here`);
      text = await readStdin();
      break;
  }
  const key = text.trim();
  if (key === "") throw new UsageError(`${origin} is empty`);
  if (/\s/.test(key)) throw new UsageError(`${origin} must hold the key alone, on one line`);
  return key;
}

export async function connectShop(
  command: Command<"shop:connect">,
  context: CliContext,
): Promise<ExitCode> {
  const { db, env, out } = context;
  const box = secretBoxFrom(env, command.name);
  const { environment, apiVersion, publishableKey } = command;
  const secretKey = await readSecretKey(command.secretKey, context);
  const input: ConnectionKeysInput =
    environment === "sandbox"
      ? {
          environment,
          apiVersion,
          sandboxSecretKey: secretKey,
          sandboxPublishableKey: publishableKey,
        }
      : { environment, apiVersion, liveSecretKey: secretKey, livePublishableKey: publishableKey };
  const record = await saveConnectionKeys(db, box, command.shop, input);
  out(`Saved the ${command.environment} keys of ${command.shop}.`);
  printConnection(toPublicConnection(record), out);
  return EXIT.ok;
}

export async function showShopStatus(
  command: Command<"shop:status">,
  { db, out }: CliContext,
): Promise<ExitCode> {
  const record = await getShopConnection(db, command.shop);
  if (!record) {
    throw new CliError(
      `shop ${command.shop} not found (it has never installed the app)`,
      EXIT.notFound,
    );
  }
  const counts = await countOutboxEventsByStatus(db, command.shop);
  const oldestOpen = await findOldestOpenEvent(db, command.shop);
  printConnection(toPublicConnection(record), out);
  printPairs(
    [
      ["outbox", OUTBOX_STATUSES.map((status) => `${status} ${counts[status] ?? 0}`).join(", ")],
      [
        "oldest open event",
        oldestOpen
          ? `${oldestOpen.createdAt.toISOString()} (id ${oldestOpen.id}, ${oldestOpen.status})`
          : "none",
      ],
    ],
    out,
  );
  return EXIT.ok;
}

function printConnection(connection: PublicConnection, out: CliContext["out"]) {
  const secret = (last4: string | null) => (last4 ? `set, ending in ${last4}` : "not set");
  printPairs(
    [
      ["shop", connection.shop],
      ["environment", connection.environment],
      ["api version", connection.apiVersion],
      [
        "status",
        connection.statusDetail
          ? `${connection.status} (${connection.statusDetail})`
          : connection.status,
      ],
      ["sandbox secret key", secret(connection.sandboxSecretKeyLast4)],
      ["live secret key", secret(connection.liveSecretKeyLast4)],
      ["sandbox publishable key", connection.sandboxPublishableKey ?? "not set"],
      ["live publishable key", connection.livePublishableKey ?? "not set"],
      ["report orders without plan", connection.reportOrdersWithoutPlan ? "yes" : "no"],
    ],
    out,
  );
}

function printPairs(pairs: [string, string][], out: CliContext["out"]) {
  for (const [label, value] of pairs) out(`${`${label}:`.padEnd(28)}${value}`);
}

export async function sendWebhook(
  command: Command<"webhook:send">,
  { env, out, fetch: fetchImpl = fetch }: CliContext,
): Promise<ExitCode> {
  const secret = env.SHOPIFY_API_SECRET?.trim();
  if (!secret) {
    throw new UsageError(`SHOPIFY_API_SECRET is required for ${command.name} (the app's secret)`);
  }
  const base = appUrl(command, env);
  const url = `${base.replace(/\/+$/, "")}/webhooks/${command.topic}`;
  let body: Buffer;
  try {
    body = await readFile(command.file);
  } catch (error) {
    throw new UsageError(`--file ${command.file} cannot be read: ${describeError(error)}`);
  }
  const headers = shopifyWebhookHeaders({
    topic: command.topic,
    shop: command.shop,
    body,
    secret,
    webhookId: command.webhookId,
    eventId: command.eventId,
  });

  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: "POST",
      headers,
      body: new Uint8Array(body),
      // Shopify does not follow redirects either: a 3xx is a failed delivery.
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
  } catch (error) {
    throw new CliError(`could not reach ${url}: ${describeError(error)}`, EXIT.failed);
  }
  const answer = `${response.status} ${response.statusText}`.trim();
  out(`POST ${url}: ${answer} (webhook id ${headers["X-Shopify-Webhook-Id"]})`);
  if (!response.ok) {
    const text = oneLine(await response.text().catch(() => ""));
    throw new CliError(
      `${url} answered ${answer}${text ? `: ${truncate(text, 200)}` : ""}`,
      EXIT.failed,
    );
  }
  return EXIT.ok;
}

function appUrl(command: Command<"webhook:send">, env: CliEnv): string {
  if (command.url) return command.url;
  const configured = env.SHOPIFY_APP_URL?.trim();
  if (configured) {
    if (!isHttpUrl(configured)) {
      throw new UsageError("SHOPIFY_APP_URL must be an http:// or https:// URL (or pass --url)");
    }
    return configured;
  }
  return `http://localhost:${env.PORT?.trim() || 3000}`;
}

type OutboxEventRow = Awaited<ReturnType<typeof listOutboxEvents>>[number];

/** What `events:list --json` prints per event. The payload (customer data) is left out. */
export function toEventJson(event: OutboxEventRow) {
  return {
    id: event.id,
    shop: event.shop,
    environment: event.environment,
    orderId: event.orderId,
    eventType: event.eventType,
    status: event.status,
    attempts: event.attempts,
    nextAttemptAt: event.nextAttemptAt.toISOString(),
    firstFailedAt: event.firstFailedAt?.toISOString() ?? null,
    lastAttemptAt: event.lastAttemptAt?.toISOString() ?? null,
    lastError: event.lastError,
    serviceEventId: event.serviceEventId,
    createdAt: event.createdAt.toISOString(),
    deliveredAt: event.deliveredAt?.toISOString() ?? null,
  };
}

export async function listEvents(
  command: Command<"events:list">,
  { db, out }: CliContext,
): Promise<ExitCode> {
  const events = await listOutboxEvents(db, {
    shop: command.shop,
    status: command.status,
    orderId: command.orderId,
    limit: command.limit,
  });
  if (command.json) {
    out(JSON.stringify(events.map(toEventJson), null, 2));
    return EXIT.ok;
  }
  if (events.length === 0) {
    out(`No events for ${command.shop} match.`);
    return EXIT.ok;
  }
  const header = [
    "ID",
    "STATUS",
    "TYPE",
    "ORDER",
    "ENVIRONMENT",
    "ATTEMPTS",
    "CREATED",
    "DELIVERED",
    "LAST ERROR",
  ];
  const rows = events.map((event) => [
    String(event.id),
    event.status,
    event.eventType,
    event.orderId,
    event.environment,
    String(event.attempts),
    shortTime(event.createdAt),
    event.deliveredAt ? shortTime(event.deliveredAt) : "-",
    event.lastError ? truncate(oneLine(event.lastError), LAST_ERROR_WIDTH) : "-",
  ]);
  for (const line of alignColumns([header, ...rows])) out(line);
  return EXIT.ok;
}

export async function retryEvents(
  command: Command<"events:retry">,
  { db, out }: CliContext,
): Promise<ExitCode> {
  if (command.target === "dead") {
    const count = await retryDeadEvents(db, command.shop);
    const scope = command.shop ? ` of ${command.shop}` : "";
    out(`${count} dead event${count === 1 ? "" : "s"}${scope} returned to pending.`);
    return EXIT.ok;
  }
  const { id } = command.target;
  const result = await retryOutboxEvent(db, id, command.shop);
  switch (result.status) {
    case "not_found":
      throw new CliError(
        `event ${id} not found${command.shop ? ` for ${command.shop}` : ""}`,
        EXIT.notFound,
      );
    case "not_retryable":
      throw new CliError(
        `event ${id} is ${result.current}; only dead, failed or unprocessable events can be retried`,
        EXIT.notRetryable,
      );
    case "retried":
      out(
        `Event ${id} (${result.event.eventType} for order ${result.event.orderId}, ${result.event.shop}) returned to pending.`,
      );
      return EXIT.ok;
  }
}

export async function resealKeys(
  command: Command<"keys:reseal">,
  { db, env, out, err }: CliContext,
): Promise<ExitCode> {
  const box = secretBoxFrom(env, command.name);
  const report = await resealStoredSecrets(db, box, { batchSize: command.batchSize });
  const { counts } = report;
  if (command.json) {
    out(JSON.stringify(report, null, 2));
  } else {
    out(
      `Saved keys of ${counts.shops} shop${counts.shops === 1 ? "" : "s"} checked against encryption key ${report.currentKeyId}: ${counts.resealed} re-sealed, ${counts.alreadyCurrent} already current, ${counts.savedMeanwhile} saved again meanwhile (kept), ${counts.unreadable} unreadable.`,
    );
    if (counts.resumed) {
      out(
        `${counts.resumed} shop${counts.resumed === 1 ? "" : "s"} paused for an unreadable key resumed.`,
      );
    }
    for (const key of report.unreadable) {
      out(`Unreadable: the ${keyNameOf(key.environment)} key of ${key.shop}: ${key.reason}`);
    }
    const sessions = report.sessions.counts;
    out(
      `Shopify tokens of ${sessions.sessions} session${sessions.sessions === 1 ? "" : "s"}: ${sessions.sealed} sealed (were in clear), ${sessions.resealed} re-sealed, ${sessions.alreadyCurrent} already current, ${sessions.storedMeanwhile} stored again meanwhile (kept), ${sessions.unreadable} unreadable.`,
    );
    for (const token of report.sessions.unreadable) {
      out(`Unreadable: the ${token.field} of session ${token.sessionId}: ${token.reason}`);
    }
  }
  // Dropping an earlier key now would lose these: say so on stderr and exit non-zero.
  if (counts.unreadable) {
    err(
      `${counts.unreadable} saved key${counts.unreadable === 1 ? "" : "s"} cannot be opened: add the encryption key${counts.unreadable === 1 ? "" : "s"} that sealed ${counts.unreadable === 1 ? "it" : "them"} to SVC_ENCRYPTION_KEYS_PREVIOUS and run keys:reseal again, or have the merchant save the key again`,
    );
  }
  const sessionsUnreadable = report.sessions.counts.unreadable;
  if (sessionsUnreadable) {
    err(
      `The Shopify tokens of ${sessionsUnreadable} session${sessionsUnreadable === 1 ? "" : "s"} cannot be opened: add the encryption key that sealed them to SVC_ENCRYPTION_KEYS_PREVIOUS and run keys:reseal again; until then the shop reads as not installed, and the merchant opening the app stores new tokens`,
    );
  }
  return counts.unreadable || sessionsUnreadable ? EXIT.failed : EXIT.ok;
}

function alignColumns(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd(),
  );
}

function shortTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** One line for an unexpected error: the last line of a Prisma error is its reason. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return oneLine(String(error));
  // fetch() hides the network error (ECONNREFUSED, ENOTFOUND, time-out) in its cause.
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (error.message === "fetch failed" && cause) {
    const code = typeof cause.code === "string" ? cause.code : undefined;
    const message = typeof cause.message === "string" ? cause.message : "";
    return message || code || error.message;
  }
  if (error.name === "TimeoutError") return `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`;
  const lines = error.message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.at(-1) ?? error.name;
}

/**
 * `data:purge`: the retention worker's pass (decisions 015 and 049), now, for an operator: the
 * customer data scrub, then the deletion of settled rows past SVC_EVENT_RETENTION_DAYS.
 */
export async function purgeCustomerData(
  command: Command<"data:purge">,
  { db, env, out }: CliContext,
): Promise<ExitCode> {
  let settings;
  try {
    settings = retentionSettingsOf(parseRetentionEnv(env));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (command.days !== undefined) settings.customerDataRetentionDays = command.days;
  const { scrubbed, deleted } = await runRetention(db, settings, { now: new Date() });
  out(
    `Scrubbed customer data recorded before ${scrubbed.cutoff.toISOString()} (${settings.customerDataRetentionDays} days): ${scrubbed.events} event(s), ${scrubbed.receipts} receipt raw body(ies), ${scrubbed.summaries} order customer ID(s).`,
  );
  out(
    `Deleted what settled before ${deleted.cutoff.toISOString()} (${settings.eventRetentionDays} days): ${deleted.events} event(s), ${deleted.attempts} attempt(s), ${deleted.receipts} receipt(s), in ${deleted.batches} batch(es) of at most ${settings.batchSize}.`,
  );
  return EXIT.ok;
}

/** `stats`: every shop's outbox and connection; exit 5 when something needs attention. */
export async function showStats(
  command: Command<"stats">,
  { db, out, err }: CliContext,
): Promise<ExitCode> {
  const stats = await readFleetStats(db, {
    now: new Date(),
    pendingMinutes: command.pendingMinutes,
  });
  if (command.json) {
    out(JSON.stringify(stats, null, 2));
  } else if (!stats.shops.length) {
    out("No shops.");
  } else {
    const header = [
      "SHOP",
      "STATUS",
      "PENDING",
      "FAILED",
      "DEAD",
      "OLDEST PENDING",
      "PAUSED",
      "LAST RECONCILIATION",
      "ATTENTION",
    ];
    const rows = stats.shops.map((shop) => [
      shop.shop,
      shop.status,
      String(shop.pending + shop.delivering),
      String(shop.failed),
      String(shop.dead),
      shop.oldestPendingAgeSeconds === null ? "-" : formatAge(shop.oldestPendingAgeSeconds),
      shop.paused.length ? shop.paused.join(",") : "-",
      shop.lastReconciliation
        ? `${shortTime(new Date(shop.lastReconciliation.startedAt))} ${shop.lastReconciliation.status}`
        : "-",
      shop.attention.length ? shop.attention.join("; ") : "-",
    ]);
    for (const line of alignColumns([header, ...rows])) out(line);
  }
  if (!stats.needsAttention) return EXIT.ok;
  const count = stats.shops.filter((shop) => shop.attention.length).length;
  err(`${count} shop${count === 1 ? " needs" : "s need"} attention`);
  return EXIT.needsAttention;
}

/** How long the CLI's run holds the shop: the worker's lease, renewed after every page. */
const CLI_LEASE_MS = 5 * 60_000;

/**
 * Runs reconciliation for one shop now, as the worker would, and prints each order it recovered
 * events for. It takes the shop's lease: a run in another process makes it stop at once.
 */
export async function reconcileShop(
  command: Command<"shop:reconcile">,
  { db, env, out, adminFor }: CliContext,
): Promise<ExitCode> {
  const { shop } = command;
  if (!(await getShopConnection(db, shop))) {
    throw new CliError(`shop ${shop} not found (it has never installed the app)`, EXIT.notFound);
  }
  if (!adminFor) throw new CliError("this command needs the app's Shopify settings", EXIT.usage);
  const settings = reconcileSettingsOf(parseReconcileEnv(env));
  const admin = await adminFor(shop);
  if (!admin) {
    throw new CliError(
      `${shop} has no offline session: open the app in the shop's admin once, then try again`,
      EXIT.failed,
    );
  }
  const owner = `cli:${process.pid}`;
  await ensureReconcileState(db, shop, new Date());
  if (!(await claimReconcileLease(db, shop, owner, new Date(), CLI_LEASE_MS))) {
    throw new CliError(
      `a reconciliation of ${shop} is running in another process; try again when it has finished`,
      EXIT.failed,
    );
  }
  try {
    const summary = await runReconciliation(
      {
        db,
        admin,
        settings,
        onProgress: async () => {
          await claimReconcileLease(db, shop, owner, new Date(), CLI_LEASE_MS);
        },
      },
      { shop, trigger: "cli", since: command.since, dryRun: command.dryRun },
    );
    const verb = command.dryRun ? "would record" : "recorded";
    for (const order of summary.recovered) {
      out(`${order.orderName} (order ${order.orderId}): ${verb} ${order.events.join(", ")}`);
    }
    printPairs(
      [
        ["run", summary.runId],
        [
          "window",
          `${summary.since.toISOString()} to ${summary.until?.toISOString() ?? "(not reached)"}`,
        ],
        ["orders checked", String(summary.ordersChecked)],
        [command.dryRun ? "events missing" : "events recovered", String(summary.eventsRecovered)],
        ["API points used", String(summary.pointsUsed)],
        ["result", summary.detail],
      ],
      out,
    );
    return summary.status === "completed" ? EXIT.ok : EXIT.failed;
  } finally {
    await releaseReconcileLease(db, shop, owner);
  }
}
