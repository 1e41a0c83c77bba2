import { createRequire } from "node:module";
import pino, { type DestinationStream, type LoggerOptions } from "pino";
import type PinoPretty from "pino-pretty";
import { wantsColour } from "./lib/terminal";

export type LogFormat = "pretty" | "json";

/**
 * Pretty lines for a person at a terminal, JSON lines for machines: CI, production and anything
 * piped (a log collector, `> file`). LOG_FORMAT=json or LOG_FORMAT=pretty decides outright,
 * except that production always writes JSON: pino-pretty is a development dependency, absent
 * from a production install (decision 038).
 */
export function logFormatFor(env: Record<string, string | undefined>, isTTY: boolean): LogFormat {
  if (env.NODE_ENV === "production") return "json";
  const chosen = env.LOG_FORMAT?.trim().toLowerCase();
  if (chosen === "json" || chosen === "pretty") return chosen;
  const ci = env.CI !== undefined && env.CI !== "" && env.CI !== "false" && env.CI !== "0";
  return isTTY && !ci ? "pretty" : "json";
}

/** Why the lines are JSON although LOG_FORMAT=pretty asked otherwise, if it did. */
function prettyRefusal(env: Record<string, string | undefined>): string | undefined {
  if (env.LOG_FORMAT?.trim().toLowerCase() !== "pretty" || env.NODE_ENV !== "production") {
    return undefined;
  }
  return "LOG_FORMAT=pretty is for development: production writes JSON lines";
}

const options = (env: Record<string, string | undefined>): LoggerOptions => ({
  level: env.LOG_LEVEL ?? (env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "svc-protection" },
  redact: {
    paths: [
      "secretKey",
      "*.secretKey",
      "sandboxSecretKey",
      "liveSecretKey",
      "*.sandboxSecretKey",
      "*.liveSecretKey",
      // Shopify's tokens (decision 044), as the library names them and as the wire spells them.
      "accessToken",
      "*.accessToken",
      "refreshToken",
      "*.refreshToken",
      "access_token",
      "*.access_token",
      "refresh_token",
      "*.refresh_token",
      'headers["x-shopify-access-token"]',
      '*.headers["x-shopify-access-token"]',
      "authorization",
      "*.authorization",
      "headers.authorization",
      "*.headers.authorization",
    ],
    censor: "[redacted]",
  },
});

/**
 * pino-pretty is a development dependency: it is loaded only when pretty lines are asked for, so
 * a production install without it never reaches for it.
 */
function prettyStream(destination: DestinationStream, colorize: boolean): DestinationStream | null {
  let pretty: typeof PinoPretty;
  try {
    pretty = createRequire(import.meta.url)("pino-pretty") as typeof PinoPretty;
  } catch {
    return null;
  }
  const { prettyFactory } = pretty;
  // Formatted in the caller's thread, line by line: nothing is lost when the process exits.
  const prettify = prettyFactory({
    colorize,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "service",
    singleLine: true,
  });
  return { write: (line: string) => destination.write(prettify(line)) };
}

export interface LoggerSetup {
  env?: Record<string, string | undefined>;
  /** Whether a terminal reads the output; process.stdout's by default. */
  isTTY?: boolean;
  /** Where the lines go; standard output by default. */
  destination?: DestinationStream;
}

/**
 * Structured logs. Secrets are redacted by path as a second line of defence; the first is
 * that no code puts a secret key into a log object at all.
 */
export function createLogger(setup: LoggerSetup = {}) {
  const env = setup.env ?? process.env;
  const isTTY = setup.isTTY ?? process.stdout.isTTY === true;
  const destination = setup.destination ?? pino.destination({ dest: 1, sync: true });
  const pretty =
    logFormatFor(env, isTTY) === "pretty"
      ? prettyStream(destination, wantsColour(env, isTTY))
      : undefined;
  const logger = pino(options(env), pretty ?? destination);
  const refusal =
    prettyRefusal(env) ??
    (pretty === null
      ? "pino-pretty is not installed (a production install): writing JSON lines"
      : undefined);
  if (refusal) logger.warn(refusal);
  return logger;
}

export const logger = createLogger();

export type Logger = typeof logger;
