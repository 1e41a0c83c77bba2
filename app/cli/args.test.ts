import { describe, expect, it } from "vitest";
import { commandHelp, EXIT, parseCommandLine, UsageError } from "./args";

const SHOP = "example.myshopify.com";

function usageError(argv: string[]): UsageError {
  const result = parseCommandLine(argv);
  if (!(result instanceof UsageError)) {
    throw new Error(`Expected a usage error for ${argv.join(" ")}, got ${JSON.stringify(result)}`);
  }
  expect(result.exitCode).toBe(EXIT.usage);
  return result;
}

function connectArgs(environment: string, secretKey: string, ...more: string[]): string[] {
  return [
    "shop:connect",
    "--shop",
    SHOP,
    "--environment",
    environment,
    "--secret-key",
    secretKey,
    ...more,
  ];
}

describe("parseCommandLine", () => {
  it("parses shop:connect", () => {
    expect(
      parseCommandLine(
        connectArgs(
          "production",
          "sk_live_abcd1234",
          "--publishable-key=pk_live_1",
          "--api-version",
          "v1.1",
        ),
      ),
    ).toEqual({
      name: "shop:connect",
      shop: SHOP,
      environment: "production",
      secretKey: { from: "inline", value: "sk_live_abcd1234" },
      publishableKey: "pk_live_1",
      apiVersion: "v1.1",
    });
    expect(parseCommandLine(connectArgs("sandbox", "sk_test_1"))).toMatchObject({
      environment: "sandbox",
      publishableKey: undefined,
      apiVersion: undefined,
    });
  });

  it("reads shop:connect's secret key from a file, standard input or a variable it names", () => {
    const connect = ["shop:connect", "--shop", SHOP, "--environment", "production"];
    expect(parseCommandLine([...connect, "--secret-key-file", "/run/secrets/svc"])).toMatchObject({
      secretKey: { from: "file", path: "/run/secrets/svc" },
    });
    expect(parseCommandLine([...connect, "--secret-key-stdin"])).toMatchObject({
      secretKey: { from: "stdin" },
    });
    expect(parseCommandLine([...connect, "--secret-key", "-"])).toMatchObject({
      secretKey: { from: "stdin" },
    });
    expect(parseCommandLine([...connect, "--secret-key-env", "SVC_LIVE_KEY"])).toMatchObject({
      secretKey: { from: "env", variable: "SVC_LIVE_KEY" },
    });
    expect(
      usageError([...connect, "--secret-key-env", "SVC_LIVE_KEY", "--secret-key-stdin"]).message,
    ).toBe(
      "shop:connect takes the secret key from one of --secret-key-file, --secret-key-stdin, --secret-key-env or --secret-key, not from --secret-key-stdin and --secret-key-env",
    );
    expect(usageError([...connect, "--secret-key-env", "sk_live_abcd1234"]).message).toBe(
      "--secret-key-env names an environment variable (e.g. SVC_LIVE_SECRET_KEY), not a key",
    );
    expect(commandHelp("shop:connect")).toMatch(/--secret-key-file <path> +read the key from/);
  });

  it("parses shop:status", () => {
    expect(parseCommandLine(["shop:status", "--shop", SHOP])).toEqual({
      name: "shop:status",
      shop: SHOP,
    });
  });

  it("parses webhook:send", () => {
    expect(
      parseCommandLine([
        "webhook:send",
        "--shop",
        SHOP,
        "--topic",
        "orders/create",
        "--file",
        "order.json",
        "--url",
        "http://127.0.0.1:3000",
        "--webhook-id",
        "w-1",
        "--event-id",
        "e-1",
      ]),
    ).toEqual({
      name: "webhook:send",
      shop: SHOP,
      topic: "orders/create",
      file: "order.json",
      url: "http://127.0.0.1:3000",
      webhookId: "w-1",
      eventId: "e-1",
    });
  });

  it("parses events:list", () => {
    expect(
      parseCommandLine([
        "events:list",
        "--shop",
        SHOP,
        "--status",
        "dead",
        "--order",
        "820982911946154508",
        "--limit",
        "5",
        "--json",
      ]),
    ).toEqual({
      name: "events:list",
      shop: SHOP,
      status: "dead",
      orderId: "820982911946154508",
      limit: 5,
      json: true,
    });
    expect(parseCommandLine(["events:list", "--shop", SHOP])).toMatchObject({
      json: false,
      status: undefined,
      limit: undefined,
    });
  });

  it("parses events:retry with --id or --dead", () => {
    expect(parseCommandLine(["events:retry", "--id", "42"])).toEqual({
      name: "events:retry",
      target: { id: 42 },
      shop: undefined,
    });
    expect(parseCommandLine(["events:retry", "--dead", "--shop", SHOP])).toEqual({
      name: "events:retry",
      target: "dead",
      shop: SHOP,
    });
  });

  it("parses keys:reseal and refuses a bad --batch-size", () => {
    expect(parseCommandLine(["keys:reseal"])).toEqual({
      name: "keys:reseal",
      batchSize: undefined,
      json: false,
    });
    expect(parseCommandLine(["keys:reseal", "--batch-size", "250", "--json"])).toEqual({
      name: "keys:reseal",
      batchSize: 250,
      json: true,
    });
    for (const value of ["0", "1001", "ten"]) {
      expect(usageError(["keys:reseal", "--batch-size", value]).message).toMatch(
        /^--batch-size must be a whole number from 1 to 1000/,
      );
    }
    expect(commandHelp("keys:reseal")).toContain("Usage: npm run svc -- keys:reseal");
  });

  it("answers --help globally and per command, without validating anything else", () => {
    for (const argv of [[], ["--help"], ["-h"], ["help"]]) {
      const result = parseCommandLine(argv);
      expect(result).toMatchObject({ name: "help" });
      expect(result).toHaveProperty("text", expect.stringContaining("events:retry"));
    }
    expect(parseCommandLine(["events:list", "--help"])).toEqual({
      name: "help",
      text: commandHelp("events:list"),
    });
    expect(parseCommandLine(["help", "events:retry"])).toEqual({
      name: "help",
      text: commandHelp("events:retry"),
    });
    const help = commandHelp("events:retry");
    expect(help).toContain("--dead");
    expect(help).toMatch(/^ {2}4 {2}not retryable/m);
  });

  it("refuses an unknown command", () => {
    expect(usageError(["events:purge"]).message).toMatch(/unknown command "events:purge"/);
    expect(usageError(["--shop", SHOP]).message).toMatch(/expected a command before --shop/);
  });

  it("refuses an unknown option, naming it", () => {
    expect(usageError(["events:list", "--shop", SHOP, "--bogus"]).message).toMatch(
      /^unknown option --bogus for events:list/,
    );
    expect(usageError(["shop:status", "--shop", SHOP, "--json"]).message).toMatch(
      /unknown option --json/,
    );
    expect(usageError(["shop:status", "--shop", SHOP, "extra"]).message).toMatch(
      /unexpected argument "extra"/,
    );
  });

  it("refuses a missing or invalid --shop", () => {
    expect(usageError(["events:list"]).message).toBe("--shop is required");
    expect(usageError(["events:list", "--shop"]).message).toBe("--shop needs a value");
    expect(usageError(["events:list", "--shop", "--json"]).message).toMatch(
      /^--shop needs a value/,
    );
    expect(usageError(["shop:status", "--shop", "Example.myshopify.com"]).message).toMatch(
      /^--shop must be a shop's myshopify.com domain/,
    );
    expect(usageError(["shop:status", "--shop", "example.com"]).message).toMatch(/^--shop /);
    expect(usageError(["events:retry", "--dead", "--shop", "nope"]).message).toMatch(/^--shop /);
  });

  it("refuses a bad environment, api version, status, limit, topic or url", () => {
    const connect = ["shop:connect", "--shop", SHOP, "--secret-key", "sk_test_1"];
    expect(usageError([...connect, "--environment", "live"]).message).toBe(
      '--environment must be one of sandbox, production, not "live"',
    );
    expect(usageError(connect).message).toBe("--environment is required");
    expect(
      usageError([...connect, "--environment", "sandbox", "--api-version", "v3"]).message,
    ).toMatch(/^--api-version must be one of v1.1, v2.0/);
    expect(usageError(["shop:connect", "--shop", SHOP, "--environment", "sandbox"]).message).toBe(
      "shop:connect needs the secret key: --secret-key-file <path>, --secret-key-stdin (or --secret-key -), --secret-key-env <VARIABLE>, or --secret-key <key>, which shows in ps and shell history",
    );
    expect(usageError(["events:list", "--shop", SHOP, "--status", "lost"]).message).toMatch(
      /^--status must be one of pending, delivering, delivered, failed, dead, unprocessable/,
    );
    expect(usageError(["events:list", "--shop", SHOP, "--limit", "0"]).message).toMatch(
      /^--limit must be a whole number from 1 to 1000/,
    );
    expect(usageError(["events:list", "--shop", SHOP, "--json=yes"]).message).toBe(
      "--json does not take a value",
    );
    const send = ["webhook:send", "--shop", SHOP, "--file", "a.json"];
    expect(usageError([...send, "--topic", "ORDERS_CREATE"]).message).toMatch(/^--topic /);
    expect(usageError([...send, "--topic", "orders/create", "--url", "localhost"]).message).toMatch(
      /^--url must be an http/,
    );
    expect(usageError(["webhook:send", "--shop", SHOP, "--topic", "orders/create"]).message).toBe(
      "--file is required",
    );
  });

  it("needs exactly one of --id and --dead, and a numeric --id", () => {
    expect(usageError(["events:retry", "--id", "1", "--dead"]).message).toBe(
      "events:retry needs exactly one of --id <id> or --dead",
    );
    expect(usageError(["events:retry", "--shop", SHOP]).message).toBe(
      "events:retry needs exactly one of --id <id> or --dead",
    );
    for (const id of ["abc", "1.5", "-3", "0", "99999999999"]) {
      expect(usageError(["events:retry", `--id=${id}`]).message).toMatch(
        /^--id must be a whole number/,
      );
    }
  });
});

describe("stats", () => {
  it("parses --json and --pending-minutes, 15 by default, and documents exit code 5", () => {
    expect(parseCommandLine(["stats"])).toEqual({ name: "stats", json: false, pendingMinutes: 15 });
    expect(parseCommandLine(["stats", "--json", "--pending-minutes", "60"])).toEqual({
      name: "stats",
      json: true,
      pendingMinutes: 60,
    });
    expect(usageError(["stats", "--pending-minutes", "0"]).message).toMatch(
      /^--pending-minutes must be a whole number from 1 to 10080/,
    );
    expect(usageError(["stats", "--shop", SHOP]).message).toMatch(/unknown option --shop/);
    expect(EXIT.needsAttention).toBe(5);
    expect(commandHelp("stats")).toContain("5  needs attention");
  });
});
