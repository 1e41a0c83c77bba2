import { spawnSync } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../app/cli/args";
import { runCommand, type CliEnv } from "../../app/cli/commands.server";
import { getSecretBox } from "../../app/crypto/secrets.server";
import prisma from "../../app/db.server";
import { getShopConnection, openSecretKey } from "../../app/models/ShopConnection.server";
import { testDatabaseProvider } from "../support/databases";
import { repoRoot, TEST_API_SECRET } from "../support/test-env";

const provider = testDatabaseProvider();
const SECRET_KEY = "sk_live_9Zx81QmRt5UvWbNc3Kd0pA7f";
const PAYLOAD_FILE = path.join(repoRoot, "test/fixtures/orders/orders-create-19-digit-ids.json");

/** Runs `npm run svc -- <argv>` in-process and keeps what it printed. */
async function svc(argv: string[], options: { env?: CliEnv; stdin?: string } = {}) {
  const command = parseCommandLine(argv);
  if (command instanceof UsageError || command.name === "help") {
    throw new Error(`Not a runnable command: ${argv.join(" ")}`);
  }
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCommand(command, {
    db: prisma,
    env: options.env ?? { ...process.env },
    out: (line) => stdout.push(line),
    err: (message) => stderr.push(message),
    readStdin: async () => {
      if (options.stdin === undefined) throw new Error("This test gives the command no stdin");
      return options.stdin;
    },
  });
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
}

/** A file holding `content`, as an operator's secret file (a mounted secret, a 0600 file). */
function secretFile(content: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "svc-cli-")), "secret-key");
  writeFileSync(file, content, { mode: 0o600 });
  return file;
}

let seq = 0;
async function seedEvent(shop: string, fields: Record<string, unknown> = {}) {
  seq += 1;
  return prisma.outboxEvent.create({
    data: {
      shop,
      environment: "sandbox",
      orderId: `10${seq}`,
      eventType: "order_placed",
      dedupeKey: `order:10${seq}:placed`,
      payload: JSON.stringify({ order_id: `10${seq}` }),
      ...fields,
    },
  });
}

describe(`operator CLI on ${provider}`, () => {
  describe("shop:connect and shop:status", () => {
    it("saves a sealed key the app can open and never prints more than its last four", async () => {
      const shop = "cli-connect.myshopify.com";
      const connect = await svc([
        "shop:connect",
        "--shop",
        shop,
        "--environment",
        "production",
        "--secret-key-file",
        secretFile(`${SECRET_KEY}\n`),
        "--publishable-key",
        "pk_live_visible",
        "--api-version",
        "v1.1",
      ]);
      expect(connect).toMatchObject({ code: 0, stderr: "" });
      expect(connect.stdout).toMatch(/live secret key: +set, ending in pA7f/);
      expect(connect.stdout).toMatch(/live publishable key: +pk_live_visible/);
      expect(connect.stdout).not.toContain(SECRET_KEY.slice(0, -4));

      const record = (await getShopConnection(prisma, shop))!;
      expect(record).toMatchObject({
        environment: "production",
        apiVersion: "v1.1",
        status: "connected",
        livePublishableKey: "pk_live_visible",
        sandboxSecretKeySealed: null,
      });
      expect(openSecretKey(getSecretBox(), record, "production")).toBe(SECRET_KEY);

      await seedEvent(shop, { status: "dead", createdAt: new Date("2026-11-01T08:00:00Z") });
      const oldest = await seedEvent(shop, {
        status: "failed",
        createdAt: new Date("2026-11-02T08:00:00Z"),
      });
      await seedEvent(shop, { status: "pending", createdAt: new Date("2026-11-03T08:00:00Z") });
      await seedEvent(shop, { status: "delivered" });

      const status = await svc(["shop:status", "--shop", shop]);
      expect(status).toMatchObject({ code: 0, stderr: "" });
      expect(status.stdout).toMatch(/environment: +production/);
      expect(status.stdout).toMatch(/api version: +v1.1/);
      expect(status.stdout).toMatch(/live secret key: +set, ending in pA7f/);
      expect(status.stdout).toMatch(/sandbox secret key: +not set/);
      expect(status.stdout).toMatch(
        /outbox: +pending 1, delivering 0, delivered 1, failed 1, dead 1, unprocessable 0/,
      );
      expect(status.stdout).toMatch(
        new RegExp(`oldest open event: +2026-11-02T08:00:00.000Z \\(id ${oldest.id}, failed\\)`),
      );
      expect(status.stdout).not.toContain(SECRET_KEY.slice(0, -4));
    });

    it("reads the key from standard input or a named variable, and warns when it is inline", async () => {
      const shop = "cli-key-sources.myshopify.com";
      const connect = ["shop:connect", "--shop", shop, "--environment", "production"];
      const saved = async () =>
        openSecretKey(getSecretBox(), (await getShopConnection(prisma, shop))!, "production");

      for (const [option, stdinKey] of [
        [["--secret-key-stdin"], "sk_live_from_stdin_0001"],
        [["--secret-key", "-"], "sk_live_from_dash_0002"],
      ] as const) {
        const result = await svc([...connect, ...option], { stdin: `${stdinKey}\n` });
        expect(result).toMatchObject({ code: 0, stderr: "" });
        expect(await saved()).toBe(stdinKey);
      }

      const fromEnv = await svc([...connect, "--secret-key-env", "CLI_TEST_LIVE_KEY"], {
        env: { ...process.env, CLI_TEST_LIVE_KEY: "sk_live_from_env_0003" },
      });
      expect(fromEnv).toMatchObject({ code: 0, stderr: "" });
      expect(await saved()).toBe("sk_live_from_env_0003");

      const inline = await svc([...connect, "--secret-key", "sk_live_inline_0004"]);
      expect(inline.code).toBe(0);
      expect(inline.stderr).toBe(
        "warning: --secret-key <key> shows the key in ps and in your shell's history: use --secret-key-file <path>, --secret-key-stdin or --secret-key-env <VARIABLE> instead",
      );
      expect(`${inline.stdout}${inline.stderr}`).not.toContain("sk_live_inline_");
      expect(await saved()).toBe("sk_live_inline_0004");
    });

    it("answers 2 for a key source that holds no key, and saves nothing", async () => {
      const shop = "cli-key-missing.myshopify.com";
      const connect = ["shop:connect", "--shop", shop, "--environment", "sandbox"];
      const missingFile = path.join(os.tmpdir(), "svc-cli-no-such-dir", "secret-key");
      expect(await svc([...connect, "--secret-key-file", missingFile])).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^--secret-key-file .* cannot be read: ENOENT/),
      });
      expect(await svc([...connect, "--secret-key-file", secretFile("\n")])).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^--secret-key-file .* is empty/),
      });
      expect(
        await svc([...connect, "--secret-key-file", secretFile("sk_test_a\nsk_test_b\n")]),
      ).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^--secret-key-file .* must hold the key alone/),
      });
      expect(
        await svc([...connect, "--secret-key-env", "CLI_TEST_UNSET"], {
          env: { ...process.env, CLI_TEST_UNSET: undefined },
        }),
      ).toMatchObject({ code: 2, stderr: "CLI_TEST_UNSET (--secret-key-env) is not set" });
      expect(await svc([...connect, "--secret-key-stdin"], { stdin: "" })).toMatchObject({
        code: 2,
        stderr: "standard input (--secret-key-stdin) is empty",
      });
      expect(await getShopConnection(prisma, shop)).toBeNull();
    });

    it("answers 3 for a shop that has no connection", async () => {
      expect(await svc(["shop:status", "--shop", "nobody.myshopify.com"])).toEqual({
        code: 3,
        stdout: "",
        stderr: expect.stringContaining("nobody.myshopify.com not found"),
      });
    });

    it("answers 2, naming SVC_ENCRYPTION_KEY, when it is missing or malformed", async () => {
      const argv = ["shop:connect", "--shop", "cli-nokey.myshopify.com"];
      const rest = ["--environment", "sandbox", "--secret-key", "sk_test_1234"];
      const missing = await svc([...argv, ...rest], {
        env: { ...process.env, SVC_ENCRYPTION_KEY: undefined },
      });
      expect(missing).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^SVC_ENCRYPTION_KEY is required/),
      });
      const malformed = await svc([...argv, ...rest], {
        env: { ...process.env, SVC_ENCRYPTION_KEY: "too-short" },
      });
      expect(malformed).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^SVC_ENCRYPTION_KEY must be 32 random bytes/),
      });
      expect(await getShopConnection(prisma, "cli-nokey.myshopify.com")).toBeNull();
    });
  });

  describe("events:list", () => {
    const shop = "cli-list.myshopify.com";

    it("prints an aligned table, newest first, filtered by status and order", async () => {
      const delivered = await seedEvent(shop, {
        status: "delivered",
        orderId: "5001",
        attempts: 1,
        deliveredAt: new Date("2026-11-20T10:00:05Z"),
        createdAt: new Date("2026-11-20T10:00:00Z"),
      });
      const dead = await seedEvent(shop, {
        status: "dead",
        orderId: "5002",
        eventType: "order_refund_added",
        environment: "production",
        attempts: 7,
        lastError: `Failed to deliver order_refund_added for order 5002: 400\n${"x".repeat(200)}`,
      });
      await seedEvent("cli-other.myshopify.com", { status: "dead", orderId: "5002" });

      const all = await svc(["events:list", "--shop", shop]);
      expect(all.code).toBe(0);
      const lines = all.stdout.split("\n");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(
        /^ID +STATUS +TYPE +ORDER +ENVIRONMENT +ATTEMPTS +CREATED +DELIVERED +LAST ERROR$/,
      );
      expect(lines[1]).toMatch(
        new RegExp(
          `^${dead.id} +dead +order_refund_added +5002 +production +7 +\\S+Z +- +Failed to deliver order_refund_added for order 5002: 400 x+…$`,
        ),
      );
      expect(lines[2]).toMatch(
        new RegExp(
          `^${delivered.id} +delivered +order_placed +5001 +sandbox +1 +2026-11-20T10:00:00Z +2026-11-20T10:00:05Z +-$`,
        ),
      );
      // Aligned: every column starts at the same offset on every line.
      for (const heading of ["STATUS", "ORDER", "CREATED", "LAST ERROR"]) {
        const column = lines[0]!.indexOf(heading);
        expect(lines[1]![column - 1]).toBe(" ");
        expect(lines[2]![column - 1]).toBe(" ");
        expect(lines[1]![column]).not.toBe(" ");
      }

      const onlyDead = await svc(["events:list", "--shop", shop, "--status", "dead"]);
      expect(onlyDead.stdout.split("\n")).toHaveLength(2);
      expect(onlyDead.stdout).not.toContain("delivered");

      const byOrder = await svc(["events:list", "--shop", shop, "--order", "5001"]);
      expect(byOrder.stdout.split("\n")).toHaveLength(2);
      expect(byOrder.stdout).toContain("5001");

      const none = await svc(["events:list", "--shop", shop, "--order", "404"]);
      expect(none).toMatchObject({ code: 0, stdout: `No events for ${shop} match.` });
    });

    it("prints a JSON array with numeric ids and ISO dates", async () => {
      const shop = "cli-json.myshopify.com";
      const older = await seedEvent(shop, {
        status: "delivered",
        createdAt: new Date("2026-11-20T10:00:00Z"),
        deliveredAt: new Date("2026-11-20T10:00:01.250Z"),
        serviceEventId: "evt_1",
      });
      const newer = await seedEvent(shop, { status: "failed", lastError: "503" });

      const result = await svc(["events:list", "--shop", shop, "--json"]);
      expect(result.code).toBe(0);
      const events = JSON.parse(result.stdout) as Record<string, unknown>[];
      expect(events.map((event) => event.id)).toEqual([newer.id, older.id]);
      expect(events[1]).toMatchObject({
        id: older.id,
        shop,
        status: "delivered",
        eventType: "order_placed",
        orderId: older.orderId,
        environment: "sandbox",
        createdAt: "2026-11-20T10:00:00.000Z",
        deliveredAt: "2026-11-20T10:00:01.250Z",
        serviceEventId: "evt_1",
      });
      expect(events[0]).toMatchObject({ status: "failed", lastError: "503", deliveredAt: null });
      expect(events[0]).not.toHaveProperty("payload");

      const filtered = await svc([
        "events:list",
        "--shop",
        shop,
        "--status",
        "failed",
        "--order",
        newer.orderId,
        "--json",
      ]);
      expect(JSON.parse(filtered.stdout)).toEqual([expect.objectContaining({ id: newer.id })]);
      const limited = await svc(["events:list", "--shop", shop, "--limit", "1", "--json"]);
      expect(JSON.parse(limited.stdout)).toEqual([expect.objectContaining({ id: newer.id })]);
      const empty = await svc(["events:list", "--shop", shop, "--status", "dead", "--json"]);
      expect(JSON.parse(empty.stdout)).toEqual([]);
    });
  });

  describe("events:retry", () => {
    const shop = "cli-retry.myshopify.com";

    it("returns a dead event to pending", async () => {
      const dead = await seedEvent(shop, {
        status: "dead",
        attempts: 9,
        firstFailedAt: new Date("2026-11-01T00:00:00Z"),
        nextAttemptAt: new Date("2026-11-04T00:00:00Z"),
      });
      const result = await svc(["events:retry", "--id", String(dead.id)]);
      expect(result).toMatchObject({ code: 0, stderr: "" });
      expect(result.stdout).toContain(`Event ${dead.id} (order_placed for order ${dead.orderId}`);
      const after = await prisma.outboxEvent.findUniqueOrThrow({ where: { id: dead.id } });
      expect(after).toMatchObject({ status: "pending", firstFailedAt: null });
      expect(after.nextAttemptAt.getTime()).toBeGreaterThan(dead.nextAttemptAt.getTime());
    });

    it("answers 4 for a delivered event and leaves it delivered", async () => {
      const delivered = await seedEvent(shop, { status: "delivered" });
      const result = await svc(["events:retry", "--id", String(delivered.id)]);
      expect(result).toMatchObject({
        code: 4,
        stderr: `event ${delivered.id} is delivered; only dead, failed or unprocessable events can be retried`,
      });
      expect(
        (await prisma.outboxEvent.findUniqueOrThrow({ where: { id: delivered.id } })).status,
      ).toBe("delivered");
    });

    it("answers 3 for an unknown id, or an id of another shop", async () => {
      expect(await svc(["events:retry", "--id", "999999"])).toMatchObject({
        code: 3,
        stderr: "event 999999 not found",
      });
      const elsewhere = await seedEvent("cli-retry-other.myshopify.com", { status: "dead" });
      expect(
        await svc(["events:retry", "--id", String(elsewhere.id), "--shop", shop]),
      ).toMatchObject({ code: 3, stderr: `event ${elsewhere.id} not found for ${shop}` });
    });

    it("--dead returns every dead event of the shop to pending, and only those", async () => {
      const shop = "cli-dead.myshopify.com";
      const deadOnes = [
        await seedEvent(shop, { status: "dead" }),
        await seedEvent(shop, { status: "dead" }),
      ];
      const failed = await seedEvent(shop, { status: "failed" });
      const otherShop = await seedEvent("cli-dead-other.myshopify.com", { status: "dead" });

      const result = await svc(["events:retry", "--dead", "--shop", shop]);
      expect(result).toEqual({
        code: 0,
        stdout: `2 dead events of ${shop} returned to pending.`,
        stderr: "",
      });
      const statuses = async (ids: number[]) =>
        (await prisma.outboxEvent.findMany({ where: { id: { in: ids } } })).map((e) => e.status);
      expect(await statuses(deadOnes.map((event) => event.id))).toEqual(["pending", "pending"]);
      expect(await statuses([failed.id])).toEqual(["failed"]);
      expect(await statuses([otherShop.id])).toEqual(["dead"]);
    });
  });

  describe("webhook:send", () => {
    interface Received {
      url: string;
      headers: IncomingHttpHeaders;
      body: Buffer;
      verified: boolean;
    }
    let server: Server | undefined;

    afterEach(async () => {
      await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
      server = undefined;
    });

    /** A stand-in for the app: checks the HMAC as authenticate.webhook does. */
    async function startApp(status: (verified: boolean) => number) {
      const received: Received[] = [];
      server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          const body = Buffer.concat(chunks);
          const expected = createHmac("sha256", TEST_API_SECRET).update(body).digest();
          const given = Buffer.from(String(request.headers["x-shopify-hmac-sha256"]), "base64");
          const verified = given.length === expected.length && timingSafeEqual(given, expected);
          received.push({ url: request.url ?? "", headers: request.headers, body, verified });
          response.statusCode = status(verified);
          response.end();
        });
      });
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}`, received };
    }

    it("posts the file's bytes, signed, with Shopify's headers, and answers 0 on 2xx", async () => {
      const app = await startApp((verified) => (verified ? 200 : 401));
      const result = await svc([
        "webhook:send",
        "--shop",
        "cli-send.myshopify.com",
        "--topic",
        "orders/create",
        "--file",
        PAYLOAD_FILE,
        "--url",
        `${app.url}/`,
        "--webhook-id",
        "cli-webhook-1",
      ]);
      expect(result).toMatchObject({ code: 0, stderr: "" });
      expect(result.stdout).toContain(`POST ${app.url}/webhooks/orders/create: 200 OK`);

      expect(app.received).toHaveLength(1);
      const [delivery] = app.received;
      expect(delivery!.verified).toBe(true);
      expect(delivery!.url).toBe("/webhooks/orders/create");
      expect(delivery!.body.equals(readFileSync(PAYLOAD_FILE))).toBe(true);
      expect(delivery!.headers).toMatchObject({
        "content-type": "application/json",
        "x-shopify-topic": "orders/create",
        "x-shopify-shop-domain": "cli-send.myshopify.com",
        "x-shopify-api-version": "2026-10",
        "x-shopify-webhook-id": "cli-webhook-1",
        "x-shopify-event-id": expect.stringMatching(/^[0-9a-f-]{36}$/),
        "x-shopify-triggered-at": expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    });

    it("defaults to SHOPIFY_APP_URL, and answers 1 when the app refuses the delivery", async () => {
      const app = await startApp(() => 401);
      const result = await svc(
        [
          "webhook:send",
          "--shop",
          "cli-send.myshopify.com",
          "--topic",
          "app/uninstalled",
          "--file",
          PAYLOAD_FILE,
        ],
        { env: { ...process.env, SHOPIFY_APP_URL: app.url } },
      );
      expect(app.received).toHaveLength(1);
      expect(app.received[0]!.verified).toBe(true);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`${app.url}/webhooks/app/uninstalled answered 401 Unauthorized`);
    });

    it("answers 1, naming the URL, when nothing listens there", async () => {
      const app = await startApp(() => 200);
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
      const result = await svc([
        "webhook:send",
        "--shop",
        "cli-send.myshopify.com",
        "--topic",
        "orders/create",
        "--file",
        PAYLOAD_FILE,
        "--url",
        app.url,
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`^could not reach ${app.url}/webhooks/orders/create: .*ECONNREFUSED`),
      );
    });

    it("answers 2 without SHOPIFY_API_SECRET or with an unreadable --file", async () => {
      const argv = ["webhook:send", "--shop", "cli-send.myshopify.com", "--topic", "orders/create"];
      const noSecret = await svc([...argv, "--file", PAYLOAD_FILE], {
        env: { ...process.env, SHOPIFY_API_SECRET: "" },
      });
      expect(noSecret).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^SHOPIFY_API_SECRET is required/),
      });
      const noFile = await svc([...argv, "--file", "/nonexistent/order.json"]);
      expect(noFile).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^--file \/nonexistent\/order.json cannot be read: .*ENOENT/),
      });
    });
  });

  describe("scripts/svc.ts", () => {
    function spawnSvc(args: string[]) {
      return spawnSync(process.execPath, ["--import", "tsx", "scripts/svc.ts", ...args], {
        cwd: repoRoot,
        encoding: "utf8",
        env: { ...process.env },
        timeout: 30_000,
      });
    }

    it("exits 2 with one stderr line for a bad option, and 0 for --help", () => {
      const bad = spawnSvc(["events:list", "--shop", "x", "--bogus"]);
      expect(bad.status).toBe(2);
      expect(bad.stdout).toBe("");
      expect(bad.stderr).toBe(
        "svc: unknown option --bogus for events:list (see npm run svc -- events:list --help)\n",
      );

      const help = spawnSvc(["events:list", "--help"]);
      expect(help.status).toBe(0);
      expect(help.stdout).toContain("Usage: npm run svc -- events:list --shop <domain>");
      expect(help.stdout).toContain("Exit codes:");
      expect(help.stderr).toBe("");
    });

    it("runs a command against DATABASE_URL and exits with its code", async () => {
      const shop = "cli-spawn.myshopify.com";
      const event = await seedEvent(shop, { status: "dead" });
      const list = spawnSvc(["events:list", "--shop", shop, "--json"]);
      expect(list.stderr).toBe("");
      expect(list.status).toBe(0);
      expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ id: event.id })]);

      const missing = spawnSvc(["shop:status", "--shop", shop]);
      expect(missing.status).toBe(3);
      expect(missing.stderr).toBe(`svc: shop ${shop} not found (it has never installed the app)\n`);
    });

    it("reads shop:connect's key from its standard input", async () => {
      const shop = "cli-spawn-stdin.myshopify.com";
      const key = "sk_test_piped_Vq7Lm2Rw";
      const connect = spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "scripts/svc.ts",
          "shop:connect",
          "--shop",
          shop,
          "--environment",
          "sandbox",
          "--secret-key-stdin",
        ],
        {
          cwd: repoRoot,
          encoding: "utf8",
          env: { ...process.env },
          input: `${key}\n`,
          timeout: 30_000,
        },
      );
      expect(connect.stderr).toBe("");
      expect(connect.status).toBe(0);
      expect(connect.stdout).toMatch(/sandbox secret key: +set, ending in m2Rw$/m);
      const record = (await getShopConnection(prisma, shop))!;
      expect(openSecretKey(getSecretBox(), record, "sandbox")).toBe(key);
    });
  });
});
