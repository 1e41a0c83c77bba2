import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import { providerOf, sqliteFilePath } from "../lib/database-url";

/** Where a start stopped: each failure names its step, and the variable to look at. */
export type StartupStep = "configuration" | "migrations" | "database connection" | "listening";

/**
 * A start-up failure said in one line: `DATABASE_URL: PostgreSQL at db:5432 refused the
 * connection (migrations)`. The reason never holds a password.
 */
export class StartupError extends Error {
  override name = "StartupError";

  constructor(
    readonly variable: string | undefined,
    readonly reason: string,
    readonly step: StartupStep,
    options?: { cause?: unknown },
  ) {
    super(`${variable ? `${variable}: ` : ""}${reason} (${step})`, options);
  }
}

/** Seconds a PostgreSQL connection may take before the start gives up on it. */
export const DATABASE_CONNECT_TIMEOUT_SECONDS = 10;

interface ErrorFields {
  code?: string;
  errno?: number;
  message: string;
  errors?: unknown[];
}

function fieldsOf(error: unknown): ErrorFields {
  if (error instanceof Error) {
    const { code, errno, errors } = error as Error & Partial<ErrorFields>;
    return {
      code: typeof code === "string" ? code : undefined,
      errno,
      errors,
      message: error.message,
    };
  }
  return { message: String(error) };
}

/** The URL with its password replaced, for any text that must show it. */
export function redactDatabaseUrl(databaseUrl: string): string {
  if (!URL.canParse(databaseUrl)) return databaseUrl;
  const url = new URL(databaseUrl);
  if (!url.password) return databaseUrl;
  url.password = "***";
  return url.toString();
}

/** `text` with every spelling of the URL's password replaced. */
function withoutPassword(text: string, databaseUrl: string): string {
  if (!URL.canParse(databaseUrl)) return text;
  const raw = new URL(databaseUrl).password;
  if (!raw) return text;
  const spellings = new Set([raw, safeDecode(raw)]);
  let result = text;
  for (const spelling of spellings) result = result.split(spelling).join("***");
  return result;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function postgresTarget(databaseUrl: string) {
  const url = new URL(databaseUrl);
  const socket = url.searchParams.get("host");
  const host = url.hostname || socket || "localhost";
  const where = host.startsWith("/") ? host : `${host}:${url.port || "5432"}`;
  return {
    host,
    where: `PostgreSQL at ${where}`,
    user: safeDecode(url.username) || "(the system user)",
    database: safeDecode(url.pathname.slice(1)) || safeDecode(url.username),
  };
}

/**
 * One clear reason for a database error at start: the common ways a URL is wrong (refused,
 * unknown host, no answer, bad password, no such database, a SQLite path that cannot be written).
 */
export function explainDatabaseError(
  error: unknown,
  target: { variable: string; url: string },
  step: StartupStep,
): StartupError {
  if (error instanceof StartupError) return error;
  const reason =
    providerOf(target.url) === "postgresql"
      ? postgresReason(fieldsOf(error), target.url)
      : sqliteReason(fieldsOf(error), target.url);
  return new StartupError(target.variable, withoutPassword(reason, target.url), step, {
    cause: error,
  });
}

function postgresReason(error: ErrorFields, databaseUrl: string): string {
  const { host, where, user, database } = postgresTarget(databaseUrl);
  // Node tries each address of a name in turn and reports them together.
  const codes = new Set([error.code, ...(error.errors ?? []).map((inner) => fieldsOf(inner).code)]);
  if (codes.has("ECONNREFUSED")) return `${where} refused the connection`;
  if (codes.has("ENOTFOUND") || codes.has("EAI_AGAIN")) {
    return `PostgreSQL host ${host} cannot be found (DNS)`;
  }
  if (codes.has("ETIMEDOUT") || /timeout expired|connection timeout/i.test(error.message)) {
    return `${where} did not answer within ${DATABASE_CONNECT_TIMEOUT_SECONDS} s`;
  }
  if (codes.has("EHOSTUNREACH") || codes.has("ENETUNREACH")) return `${where} is unreachable`;
  switch (error.code) {
    case "28P01":
      return `${where} refused the password of user "${user}"`;
    case "28000":
      return `${where} refused user "${user}": ${error.message}`;
    case "3D000":
      return `${where} has no database "${database}"`;
    case "57P03":
      return `${where} is starting up or shutting down`;
    case "53300":
      return `${where} has no connection free (too many clients)`;
  }
  if (/Connection terminated unexpectedly/i.test(error.message)) {
    return `${where} closed the connection at once (a pooler or proxy refusing it?)`;
  }
  return `${where}: ${error.message}`;
}

function sqliteReason(error: ErrorFields, databaseUrl: string): string {
  const file = sqliteFilePath(databaseUrl);
  const dir = path.dirname(file);
  const writable = (location: string) => {
    try {
      accessSync(location, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (!existsSync(dir)) return `the directory ${dir} of the SQLite file does not exist`;
  if (!writable(dir)) return `the directory ${dir} of the SQLite file is not writable`;
  if (existsSync(file) && !writable(file)) return `the SQLite file ${file} is not writable`;
  if (error.code === "SQLITE_CANTOPEN") return `SQLite cannot open ${file}`;
  if (error.code === "SQLITE_READONLY" || error.code?.startsWith("SQLITE_READONLY_")) {
    return `the SQLite file ${file} is read-only (it, its directory or its -wal file is not writable)`;
  }
  return `SQLite ${file}: ${error.message}`;
}
