import pino from "pino";

/**
 * Structured logs. Secrets are redacted by path as a second line of defence; the first is
 * that no code puts a secret key into a log object at all.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
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

export type Logger = typeof logger;
