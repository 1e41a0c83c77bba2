import { createRequire } from "node:module";
import pino, { type DestinationStream, type LoggerOptions } from "pino";
import type PinoPretty from "pino-pretty";
import { wantsColour } from "./lib/terminal";

export type LogFormat = "pretty" | "json";

/**
 * Pretty lines for a person at a terminal, JSON lines for machines: CI, production and anything
 * piped (a log collector, `> file`). LOG_FORMAT=json or LOG_FORMAT=pretty decides outright.
 */
export function logFormatFor(env: Record<string, string | undefined>, isTTY: boolean): LogFormat {
  const chosen = env.LOG_FORMAT?.trim().toLowerCase();
  if (chosen === "json" || chosen === "pretty") return chosen;
  const ci = env.CI !== undefined && env.CI !== "" && env.CI !== "false" && env.CI !== "0";
  return isTTY && !ci && env.NODE_ENV !== "production" ? "pretty" : "json";
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
      "accessToken",
      "*.accessToken",
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
function prettyStream(destination: DestinationStream, colorize: boolean): DestinationStream {
  const { prettyFactory } = createRequire(import.meta.url)("pino-pretty") as typeof PinoPretty;
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
  const format = logFormatFor(env, isTTY);
  return pino(
    options(env),
    format === "pretty" ? prettyStream(destination, wantsColour(env, isTTY)) : destination,
  );
}

export const logger = createLogger();

export type Logger = typeof logger;
