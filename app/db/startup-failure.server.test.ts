import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { explainDatabaseError, redactDatabaseUrl, StartupError } from "./startup-failure.server";

const URL_WITH_PASSWORD = "postgresql://app:s3cr%40t@db.internal:6432/shop_app";
const target = { variable: "DATABASE_URL", url: URL_WITH_PASSWORD };

function errorWith(fields: Record<string, unknown>, message = "failed"): Error {
  return Object.assign(new Error(message), fields);
}

describe("a database error at start", () => {
  it.each([
    [errorWith({ code: "ECONNREFUSED" }), "PostgreSQL at db.internal:6432 refused the connection"],
    [
      new AggregateError([
        errorWith({ code: "ECONNREFUSED" }),
        errorWith({ code: "ECONNREFUSED" }),
      ]),
      "PostgreSQL at db.internal:6432 refused the connection",
    ],
    [errorWith({ code: "ENOTFOUND" }), "PostgreSQL host db.internal cannot be found (DNS)"],
    [
      new Error("Connection terminated due to connection timeout"),
      "PostgreSQL at db.internal:6432 did not answer within 10 s",
    ],
    [errorWith({ code: "ETIMEDOUT" }), "PostgreSQL at db.internal:6432 did not answer within 10 s"],
    [
      errorWith({ code: "28P01" }, 'password authentication failed for user "app"'),
      'PostgreSQL at db.internal:6432 refused the password of user "app"',
    ],
    [
      errorWith({ code: "3D000" }, 'database "shop_app" does not exist'),
      'PostgreSQL at db.internal:6432 has no database "shop_app"',
    ],
    [
      errorWith({ code: "53300" }, "sorry, too many clients already"),
      "PostgreSQL at db.internal:6432 has no connection free (too many clients)",
    ],
  ])("is one line naming the variable and the step: %s", (error, reason) => {
    const explained = explainDatabaseError(error, target, "migrations");
    expect(explained).toBeInstanceOf(StartupError);
    expect(explained.message).toBe(`DATABASE_URL: ${reason} (migrations)`);
  });

  it("never shows the password, not even inside an unexpected message", () => {
    const explained = explainDatabaseError(
      new Error("could not use postgresql://app:s3cr@t@db.internal:6432 (s3cr%40t)"),
      target,
      "database connection",
    );
    expect(explained.message).toBe(
      "DATABASE_URL: PostgreSQL at db.internal:6432: could not use postgresql://app:***@db.internal:6432 (***) (database connection)",
    );
    expect(redactDatabaseUrl(URL_WITH_PASSWORD)).toBe(
      "postgresql://app:***@db.internal:6432/shop_app",
    );
    expect(redactDatabaseUrl("file:./prisma/dev.sqlite")).toBe("file:./prisma/dev.sqlite");
  });

  it("says what is wrong with a SQLite path", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "svc-startup-"));
    const missing = path.join(dir, "no-such-dir");
    const explained = explainDatabaseError(
      new TypeError("Cannot open database because the directory does not exist"),
      { variable: "DATABASE_URL", url: `file:${missing}/app.sqlite` },
      "migrations",
    );
    expect(explained.message).toBe(
      `DATABASE_URL: the directory ${missing} of the SQLite file does not exist (migrations)`,
    );
  });

  it("keeps a message that already names its variable", () => {
    const original = new StartupError("SVC_MIGRATION_LOCK_TIMEOUT_SECONDS", "held", "migrations");
    expect(explainDatabaseError(original, target, "migrations")).toBe(original);
  });
});
