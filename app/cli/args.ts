import { parseArgs } from "node:util";
import { OUTBOX_STATUSES, type OutboxStatus } from "../models/outbox-status";
import { API_VERSIONS, ENVIRONMENTS, type ApiVersion, type Environment } from "../protection/types";

// The operator CLI's command line (`npm run svc -- <command>`): argv in, a typed command or
// a UsageError out. No I/O and no configuration, so --help and usage errors always work.

/** stats: a pending event older than this many minutes needs attention (issue 28's alert). */
export const DEFAULT_PENDING_MINUTES = 15;

/** Exit codes scripts can rely on. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  notFound: 3,
  notRetryable: 4,
  needsAttention: 5,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
const WEBHOOK_TOPIC = /^[a-z0-9_]+(\/[a-z0-9_]+)+$/;
const MAX_LIST_LIMIT = 1_000;
const MAX_RESEAL_BATCH = 1_000;
const MAX_RETENTION_DAYS = 3_650;
const MAX_PENDING_MINUTES = 10_080;
// OutboxEvent.id is a 32-bit integer column on both databases.
const MAX_EVENT_ID = 2_147_483_647;

/** An expected failure: printed as one line, and the process exits with its code. */
export class CliError extends Error {
  override name = "CliError";
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export class UsageError extends CliError {
  override name = "UsageError";
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/**
 * Where shop:connect reads the secret key (issue 27, defect 10): a file, standard input or an
 * environment variable keep it out of `ps` and the shell's history; inline is kept, with a warning.
 */
export type SecretKeySource =
  | { from: "file"; path: string }
  | { from: "stdin" }
  | { from: "env"; variable: string }
  | { from: "inline"; value: string };

export type CliCommand =
  | {
      name: "shop:connect";
      shop: string;
      environment: Environment;
      secretKey: SecretKeySource;
      publishableKey?: string;
      apiVersion?: ApiVersion;
    }
  | { name: "shop:status"; shop: string }
  | {
      name: "webhook:send";
      shop: string;
      topic: string;
      file: string;
      url?: string;
      webhookId?: string;
      eventId?: string;
    }
  | {
      name: "events:list";
      shop: string;
      status?: OutboxStatus;
      orderId?: string;
      limit?: number;
      json: boolean;
    }
  | { name: "events:retry"; target: { id: number } | "dead"; shop?: string }
  | { name: "keys:reseal"; batchSize?: number; json: boolean }
  | { name: "data:purge"; days?: number }
  | { name: "stats"; json: boolean; pendingMinutes: number }
  | { name: "shop:reconcile"; shop: string; since?: Date; dryRun: boolean };

export type CommandName = CliCommand["name"];
export type HelpRequest = { name: "help"; text: string };

type OptionSpec = { type: "string" | "boolean"; value?: string; help: string };

interface CommandSpec {
  summary: string;
  usage: string;
  options: Record<string, OptionSpec>;
  exitCodes: ExitCode[];
}

const SHOP_OPTION: OptionSpec = {
  type: "string",
  value: "<domain>",
  help: "the shop, e.g. example.myshopify.com",
};

const COMMANDS: Record<CommandName, CommandSpec> = {
  "shop:connect": {
    summary: "Save a shop's service keys (sealed; only the last 4 characters are ever shown)",
    usage:
      "shop:connect --shop <domain> --environment sandbox|production (--secret-key-file <path> | --secret-key-stdin | --secret-key-env <VARIABLE>) [--publishable-key <key>] [--api-version v2.0|v1.1]",
    options: {
      shop: SHOP_OPTION,
      environment: {
        type: "string",
        value: ENVIRONMENTS.join("|"),
        help: "which key this is; also becomes the shop's active environment",
      },
      "secret-key-file": {
        type: "string",
        value: "<path>",
        help: "read the key from this file (a mounted secret, a file only you can read)",
      },
      "secret-key-stdin": {
        type: "boolean",
        help: "read the key from standard input (a pipe, or typed and ended with Ctrl-D)",
      },
      "secret-key-env": {
        type: "string",
        value: "<VARIABLE>",
        help: "read the key from this environment variable (e.g. one your secret manager sets)",
      },
      "secret-key": {
        type: "string",
        value: "<key>|-",
        help: "the key itself, which shows in ps and shell history (a warning says so); - reads standard input",
      },
      "publishable-key": {
        type: "string",
        value: "<key>",
        help: "the service's publishable key (optional)",
      },
      "api-version": {
        type: "string",
        value: API_VERSIONS.join("|"),
        help: "the service API version (unchanged if omitted)",
      },
    },
    exitCodes: [EXIT.ok, EXIT.failed, EXIT.usage],
  },
  "shop:status": {
    summary: "Show a shop's connection and its outbox counts",
    usage: "shop:status --shop <domain>",
    options: { shop: SHOP_OPTION },
    exitCodes: [EXIT.ok, EXIT.failed, EXIT.usage, EXIT.notFound],
  },
  "webhook:send": {
    summary: "POST a webhook to the app, signed and with the headers Shopify sends",
    usage:
      "webhook:send --shop <domain> --topic <topic> --file <payload.json> [--url <app url>] [--webhook-id <id>] [--event-id <id>]",
    options: {
      shop: SHOP_OPTION,
      topic: { type: "string", value: "<topic>", help: "Shopify's topic, e.g. orders/create" },
      file: { type: "string", value: "<payload.json>", help: "the body, sent byte for byte" },
      url: {
        type: "string",
        value: "<app url>",
        help: "default SHOPIFY_APP_URL, else http://localhost:$PORT (3000)",
      },
      "webhook-id": {
        type: "string",
        value: "<id>",
        help: "X-Shopify-Webhook-Id (default: a random UUID)",
      },
      "event-id": {
        type: "string",
        value: "<id>",
        help: "X-Shopify-Event-Id (default: a random UUID)",
      },
    },
    exitCodes: [EXIT.ok, EXIT.failed, EXIT.usage],
  },
  "events:list": {
    summary: "List a shop's outbox events, newest first",
    usage: "events:list --shop <domain> [--status <status>] [--order <id>] [--limit N] [--json]",
    options: {
      shop: SHOP_OPTION,
      status: {
        type: "string",
        value: "<status>",
        help: `only this status: ${OUTBOX_STATUSES.join(", ")}`,
      },
      order: { type: "string", value: "<id>", help: "only this Shopify order ID" },
      limit: {
        type: "string",
        value: "N",
        help: `at most N events (default 50, at most ${MAX_LIST_LIMIT})`,
      },
      json: { type: "boolean", help: "a JSON array instead of a table" },
    },
    exitCodes: [EXIT.ok, EXIT.failed, EXIT.usage],
  },
  "events:retry": {
    summary: "Send a dead, failed or unprocessable event again, or every dead event",
    usage: "events:retry (--id <id> | --dead) [--shop <domain>]",
    options: {
      id: { type: "string", value: "<id>", help: "the event to send again" },
      dead: { type: "boolean", help: "every dead event (of --shop, or of all shops)" },
      shop: { ...SHOP_OPTION, help: "only this shop's events" },
    },
    exitCodes: [EXIT.ok, EXIT.failed, EXIT.usage, EXIT.notFound, EXIT.notRetryable],
  },
  "keys:reseal": {
    summary:
      "Seal every saved secret key and every session's Shopify tokens again with SVC_ENCRYPTION_KEY, so earlier keys can be dropped",
    usage: "keys:reseal [--batch-size N] [--json]",
    options: {
      "batch-size": {
        type: "string",
        value: "N",
        help: `shops, then sessions, read per round trip (default 100, at most ${MAX_RESEAL_BATCH})`,
      },
      json: { type: "boolean", help: "the counts and unreadable keys as JSON" },
    },
    // 1 also when some key cannot be opened: the earlier encryption key is still needed.
    exitCodes: [EXIT.ok, EXIT.failed, EXIT.usage],
  },
  "shop:reconcile": {
    summary:
      "Compare a shop's orders in Shopify with the outbox and record the events whose webhooks never came (issue 17)",
    usage: "shop:reconcile --shop <domain> [--since <iso>] [--dry-run]",
    options: {
      shop: SHOP_OPTION,
      since: {
        type: "string",
        value: "<iso>",
        help: "read the orders updated since then (e.g. 2026-11-01T00:00:00Z) instead of since the watermark, which stays where it is",
      },
      "dry-run": { type: "boolean", help: "print what would be recorded, and record nothing" },
    },
    exitCodes: [EXIT.ok, EXIT.failed, EXIT.usage, EXIT.notFound],
  },
  "data:purge": {
    summary:
      "Apply the retention periods now, as the worker does every 6 hours: scrub customer data (decision 015), then delete settled events, attempts and receipts (decision 049)",
    usage: "data:purge [--days N]",
    options: {
      days: {
        type: "string",
        value: "N",
        help: `the customer data retention period (default SVC_CUSTOMER_DATA_RETENTION_DAYS, else 90; at most ${MAX_RETENTION_DAYS}); rows are deleted after SVC_EVENT_RETENTION_DAYS (180)`,
      },
    },
    exitCodes: [EXIT.ok, EXIT.failed, EXIT.usage],
  },
  stats: {
    summary:
      "Every shop's outbox (pending, failed, dead, oldest pending), paused connections and last reconciliation; exits 5 when something needs attention",
    usage: "stats [--json] [--pending-minutes N]",
    options: {
      json: { type: "boolean", help: "the shops and what needs attention as JSON" },
      "pending-minutes": {
        type: "string",
        value: "N",
        help: `a pending event older than N minutes needs attention (default ${DEFAULT_PENDING_MINUTES}, at most ${MAX_PENDING_MINUTES})`,
      },
    },
    exitCodes: [EXIT.ok, EXIT.failed, EXIT.usage, EXIT.needsAttention],
  },
};

const EXIT_CODE_MEANINGS: Record<ExitCode, string> = {
  [EXIT.ok]: "success",
  [EXIT.failed]:
    "the operation failed (webhook answered non-2xx, network or database error, a key that cannot be opened)",
  [EXIT.usage]: "usage or configuration error (unknown command or option, missing or bad value)",
  [EXIT.notFound]: "not found (the shop or event does not exist)",
  [EXIT.notRetryable]: "not retryable (the event is delivered, pending or being delivered)",
  [EXIT.needsAttention]:
    "needs attention (stats: a dead event, a paused connection, an old pending event or a failed reconciliation)",
};

/** An instant: a date, a time and its offset, so that no clock's zone changes its meaning. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function isCommandName(value: string): value is CommandName {
  return Object.hasOwn(COMMANDS, value);
}

function exitCodeLines(codes: readonly ExitCode[]): string[] {
  return codes.map((code) => `  ${code}  ${EXIT_CODE_MEANINGS[code]}`);
}

export function globalHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    "Usage: npm run svc -- <command> [options]",
    "",
    "Operator commands for svc-protection. Configuration comes from the environment and from",
    ".env in the working directory (DATABASE_URL; SVC_ENCRYPTION_KEY for shop:connect and",
    "keys:reseal, which also reads SVC_ENCRYPTION_KEYS_PREVIOUS; SHOPIFY_API_SECRET for",
    "webhook:send).",
    "",
    "Commands:",
    ...Object.entries(COMMANDS).map(([name, spec]) => `  ${name.padEnd(width)}  ${spec.summary}`),
    "",
    "Run npm run svc -- <command> --help for a command's options.",
    "",
    "Exit codes:",
    ...exitCodeLines(Object.values(EXIT)),
  ].join("\n");
}

export function commandHelp(name: CommandName): string {
  const spec = COMMANDS[name];
  const flags = Object.entries(spec.options).map(
    ([option, { value }]) => `--${option}${value ? ` ${value}` : ""}`,
  );
  const width = Math.max(...flags.map((flag) => flag.length));
  return [
    `Usage: npm run svc -- ${spec.usage}`,
    "",
    spec.summary,
    "",
    "Options:",
    ...Object.values(spec.options).map(
      (option, index) => `  ${flags[index]!.padEnd(width)}  ${option.help}`,
    ),
    `  ${"--help".padEnd(width)}  this text`,
    "",
    "Exit codes:",
    ...exitCodeLines(spec.exitCodes),
  ].join("\n");
}

/** `npm run svc -- <argv>`: the command to run, a help text to print, or what is wrong. */
export function parseCommandLine(argv: readonly string[]): CliCommand | HelpRequest | UsageError {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    const topic = first === "help" ? rest[0] : undefined;
    if (topic !== undefined && isCommandName(topic)) {
      return { name: "help", text: commandHelp(topic) };
    }
    return { name: "help", text: globalHelp() };
  }
  if (first.startsWith("-")) {
    return new UsageError(`expected a command before ${first} (see npm run svc -- --help)`);
  }
  if (!isCommandName(first)) {
    return new UsageError(`unknown command "${first}" (see npm run svc -- --help)`);
  }
  try {
    const values = readOptions(first, rest);
    if (values.help === true) return { name: "help", text: commandHelp(first) };
    return toCommand(first, new OptionValues(values));
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}

type RawValues = Record<string, string | boolean | undefined>;

function readOptions(name: CommandName, args: string[]): RawValues {
  const options = Object.fromEntries([
    ...Object.entries(COMMANDS[name].options).map(([option, { type }]) => [option, { type }]),
    ["help", { type: "boolean", short: "h" }],
  ]) as Record<string, { type: "string" | "boolean"; short?: string }>;
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(describeParseError(name, error));
  }
}

/** node:util's parse errors, reworded to one line that names the option. */
function describeParseError(command: CommandName, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  const option = quoted.split(" ")[0] ?? quoted;
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${option} for ${command} (see npm run svc -- ${command} --help)`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument "${quoted}" for ${command}: every value follows its option`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      if (message.includes("does not take an argument")) return `${option} does not take a value`;
      if (message.includes("ambiguous")) {
        return `${option} needs a value (for a value starting with "-", write ${option}=<value>)`;
      }
      return `${option} needs a value`;
    default:
      return message.split("\n")[0] ?? message;
  }
}

class OptionValues {
  constructor(private readonly values: RawValues) {}

  flag(option: string): boolean {
    return this.values[option] === true;
  }

  optional(option: string): string | undefined {
    const value = this.values[option];
    if (typeof value !== "string") return undefined;
    const trimmed = value.trim();
    if (trimmed === "") throw new UsageError(`--${option} must not be empty`);
    return trimmed;
  }

  required(option: string): string {
    const value = this.optional(option);
    if (value === undefined) throw new UsageError(`--${option} is required`);
    return value;
  }

  oneOf<T extends string>(option: string, allowed: readonly T[], value = this.optional(option)) {
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw new UsageError(`--${option} must be one of ${allowed.join(", ")}, not "${value}"`);
    }
    return value as T;
  }

  shop(option = "shop", value = this.required(option)): string {
    if (!SHOP_DOMAIN.test(value)) {
      throw new UsageError(
        `--${option} must be a shop's myshopify.com domain in lowercase, e.g. example.myshopify.com, not "${value}"`,
      );
    }
    return value;
  }

  integer(option: string, max: number): number | undefined {
    const value = this.optional(option);
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < 1 || number > max) {
      throw new UsageError(`--${option} must be a whole number from 1 to ${max}, not "${value}"`);
    }
    return number;
  }
}

function toCommand(name: CommandName, options: OptionValues): CliCommand {
  switch (name) {
    case "shop:connect":
      return {
        name,
        shop: options.shop(),
        environment: options.oneOf("environment", ENVIRONMENTS, options.required("environment"))!,
        secretKey: secretKeySourceOf(options),
        publishableKey: options.optional("publishable-key"),
        apiVersion: options.oneOf("api-version", API_VERSIONS),
      };
    case "shop:status":
      return { name, shop: options.shop() };
    case "webhook:send": {
      const topic = options.required("topic");
      if (!WEBHOOK_TOPIC.test(topic)) {
        throw new UsageError(
          `--topic must be a topic as Shopify spells it, e.g. orders/create, not "${topic}"`,
        );
      }
      const url = options.optional("url");
      if (url !== undefined && !isHttpUrl(url)) {
        throw new UsageError(`--url must be an http:// or https:// URL, not "${url}"`);
      }
      return {
        name,
        shop: options.shop(),
        topic,
        file: options.required("file"),
        url,
        webhookId: options.optional("webhook-id"),
        eventId: options.optional("event-id"),
      };
    }
    case "events:list":
      return {
        name,
        shop: options.shop(),
        status: options.oneOf("status", OUTBOX_STATUSES),
        orderId: options.optional("order"),
        limit: options.integer("limit", MAX_LIST_LIMIT),
        json: options.flag("json"),
      };
    case "events:retry": {
      const id = options.integer("id", MAX_EVENT_ID);
      const dead = options.flag("dead");
      if ((id === undefined) === !dead) {
        throw new UsageError("events:retry needs exactly one of --id <id> or --dead");
      }
      const shop = options.optional("shop");
      return {
        name,
        target: id === undefined ? "dead" : { id },
        shop: shop === undefined ? undefined : options.shop("shop", shop),
      };
    }
    case "keys:reseal":
      return {
        name,
        batchSize: options.integer("batch-size", MAX_RESEAL_BATCH),
        json: options.flag("json"),
      };
    case "data:purge":
      return { name, days: options.integer("days", MAX_RETENTION_DAYS) };
    case "stats":
      return {
        name,
        json: options.flag("json"),
        pendingMinutes:
          options.integer("pending-minutes", MAX_PENDING_MINUTES) ?? DEFAULT_PENDING_MINUTES,
      };
    case "shop:reconcile": {
      const since = options.optional("since");
      if (since !== undefined && (!ISO_INSTANT.test(since) || Number.isNaN(Date.parse(since)))) {
        throw new UsageError(
          `--since must be a date and time with its offset, e.g. 2026-11-01T00:00:00Z, not "${since}"`,
        );
      }
      return {
        name,
        shop: options.shop(),
        since: since === undefined ? undefined : new Date(since),
        dryRun: options.flag("dry-run"),
      };
    }
  }
}

const SECRET_KEY_OPTIONS = [
  "secret-key-file",
  "secret-key-stdin",
  "secret-key-env",
  "secret-key",
] as const;
// Upper case, as variables are named: a key given here by mistake (sk_live_…) is refused unechoed.
const ENV_VARIABLE = /^[A-Z_][A-Z0-9_]*$/;

function secretKeySourceOf(options: OptionValues): SecretKeySource {
  const given = SECRET_KEY_OPTIONS.filter((option) =>
    option === "secret-key-stdin" ? options.flag(option) : options.optional(option) !== undefined,
  );
  if (given.length === 0) {
    throw new UsageError(
      "shop:connect needs the secret key: --secret-key-file <path>, --secret-key-stdin (or --secret-key -), --secret-key-env <VARIABLE>, or --secret-key <key>, which shows in ps and shell history",
    );
  }
  if (given.length > 1) {
    throw new UsageError(
      `shop:connect takes the secret key from one of ${SECRET_KEY_OPTIONS.slice(0, -1)
        .map((option) => `--${option}`)
        .join(
          ", ",
        )} or --secret-key, not from ${given.map((option) => `--${option}`).join(" and ")}`,
    );
  }
  switch (given[0]!) {
    case "secret-key-file":
      return { from: "file", path: options.required("secret-key-file") };
    case "secret-key-stdin":
      return { from: "stdin" };
    case "secret-key-env": {
      const variable = options.required("secret-key-env");
      if (!ENV_VARIABLE.test(variable)) {
        throw new UsageError(
          "--secret-key-env names an environment variable (e.g. SVC_LIVE_SECRET_KEY), not a key",
        );
      }
      return { from: "env", variable };
    }
    case "secret-key": {
      const value = options.required("secret-key");
      return value === "-" ? { from: "stdin" } : { from: "inline", value };
    }
  }
}

export function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}
