import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { EmulatorClient, SANDBOX_KEY, LIVE_KEY } from "../../emulator/test-support";
import type * as ArgsModule from "../../app/cli/args";
import type * as CommandsModule from "../../app/cli/commands.server";
import type * as SecretBoxModule from "../../app/crypto/secret-box.server";
import type * as SecretsModule from "../../app/crypto/secrets.server";
import type { AppPrismaClient } from "../../app/db/client.server";
import type * as ConnectionsModule from "../../app/models/ShopConnection.server";
import type * as CartRoute from "../../app/routes/proxy.cart_updates";
import type * as PlansRoute from "../../app/routes/proxy.plans";
import { appProxyRequest, MACBOOK_AIR_QUERY, plansQuery } from "../support/app-proxy";
import { OWN_CARTS, readOwnCart } from "../support/cart-fixtures";
import { testDatabaseProvider } from "../support/databases";
import { connectShop } from "../support/shops";
import { TEST_ENCRYPTION_KEY } from "../support/test-env";
import { callRoute } from "../support/routes";

// Encryption key rotation (decision 017): the app opens what any configured earlier key sealed,
// `npm run svc -- keys:reseal` moves every saved key to the current encryption key, and a key
// that cannot be opened pauses its shop instead of failing the storefront.

const provider = testDatabaseProvider();
const CURRENT = Buffer.from(TEST_ENCRYPTION_KEY, "base64");
const OLDER = Buffer.alloc(32, 2);
const OLDEST = Buffer.alloc(32, 1);
// Sealed something once, configured nowhere any more.
const LOST = Buffer.alloc(32, 9);
const b64 = (key: Buffer) => key.toString("base64");
const SESSION = "3f9a6c1e-8b2d-4e7a-9c5f-1d2e3b4a5c6d";

let emulator: RunningEmulator;
const control = new EmulatorClient();
let app: {
  prisma: AppPrismaClient;
  connections: typeof ConnectionsModule;
  secrets: typeof SecretsModule;
  secretBox: typeof SecretBoxModule;
  args: typeof ArgsModule;
  commands: typeof CommandsModule;
  plans: typeof PlansRoute;
  carts: typeof CartRoute;
};

const savedPrevious = process.env.SVC_ENCRYPTION_KEYS_PREVIOUS;

beforeAll(async () => {
  emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY, port: 0 });
  control.attach(emulator);
  // Read by getEnv() on first use, which is below: two earlier keys, with the list's separators.
  process.env.SVC_BASE_URL = emulator.url;
  process.env.SVC_ENCRYPTION_KEYS_PREVIOUS = `${b64(OLDER)}, ${b64(OLDEST)}`;
  app = {
    prisma: (await import("../../app/db.server")).default,
    connections: await import("../../app/models/ShopConnection.server"),
    secrets: await import("../../app/crypto/secrets.server"),
    secretBox: await import("../../app/crypto/secret-box.server"),
    args: await import("../../app/cli/args"),
    commands: await import("../../app/cli/commands.server"),
    plans: await import("../../app/routes/proxy.plans"),
    carts: await import("../../app/routes/proxy.cart_updates"),
  };
});

afterAll(async () => {
  await emulator.close();
  if (savedPrevious === undefined) delete process.env.SVC_ENCRYPTION_KEYS_PREVIOUS;
  else process.env.SVC_ENCRYPTION_KEYS_PREVIOUS = savedPrevious;
});

beforeEach(async () => {
  await control.reset();
  await app.prisma.shopConnection.deleteMany({});
  await app.prisma.session.deleteMany({});
});

/** Saves keys as the app did while `keys` were its encryption keys (the first one sealing). */
function connectUnder(keys: Buffer[], shop: string, input: ConnectionsModule.ConnectionKeysInput) {
  return connectShop(app.prisma, shop, input, app.secretBox.createSecretBox(keys));
}

async function record(shop: string) {
  return (await app.connections.getShopConnection(app.prisma, shop))!;
}

/** The key id each of a shop's saved keys names: which encryption key sealed it. */
async function sealedBy(shop: string) {
  const row = await record(shop);
  const keyId = (sealed: string | null) => (sealed === null ? null : sealed.split(".")[1]);
  return { sandbox: keyId(row.sandboxSecretKeySealed), live: keyId(row.liveSecretKeySealed) };
}

const idOf = (key: Buffer) => app.secretBox.keyIdOf(key);

// ---------------------------------------------------------------------------------------------
// The storefront (app proxy)

async function proxy(route: "plans" | "cart_updates", shop: string, variant: string) {
  const request =
    route === "plans"
      ? appProxyRequest({
          path: "plans",
          shop,
          query: plansQuery(variant, {
            ...MACBOOK_AIR_QUERY,
            user_session_id: SESSION,
            product_title: "Laptop",
          }),
        })
      : appProxyRequest({
          path: "cart_updates",
          shop,
          body: JSON.stringify({
            user_session_id: SESSION,
            cart: readOwnCart(OWN_CARTS.cadWithPlan),
          }),
        });
  const handler = route === "plans" ? app.plans.loader : app.carts.action;
  const answer = await callRoute(handler, request);
  if (!(answer instanceof Response)) throw new Error("A proxy route must answer a Response");
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

describe(`storefront during a key rotation (${provider})`, () => {
  it("serves a shop whose key was sealed two encryption keys ago", async () => {
    const shop = "rotated-twice.myshopify.com";
    await connectUnder([OLDEST], shop, { environment: "sandbox", sandboxSecretKey: SANDBOX_KEY });

    const plans = await proxy("plans", shop, "44590322811001");
    expect(plans.status).toBe(200);
    expect(plans.body).not.toHaveProperty("unavailable");
    const cart = await proxy("cart_updates", shop, "");
    expect(cart).toMatchObject({ status: 200, body: { source: "service" } });
    // The service saw the key the merchant saved, opened with the second earlier key.
    expect((await control.requests()).map((request) => request.path)).toEqual([
      "/sandbox/plans",
      "/sandbox/cart_updates",
    ]);
    expect((await record(shop)).status).toBe("connected");
  });

  it("answers as for a shop without a key, and pauses the shop, when its key cannot be opened", async () => {
    const shop = "lost-key.myshopify.com";
    await connectUnder([LOST], shop, { environment: "sandbox", sandboxSecretKey: SANDBOX_KEY });

    const plans = await proxy("plans", shop, "44590322811002");
    expect(plans).toEqual({
      status: 200,
      body: { variant_id: "44590322811002", plans: [], unavailable: "not_connected" },
    });
    const paused = await record(shop);
    expect(paused.status).toBe("secret_unreadable");
    expect(paused.statusDetail).toContain("sandbox secret key cannot be opened");
    expect(paused.statusDetail).toContain(`encryption key ${idOf(LOST)}`);
    expect(paused.statusDetail).toContain("SVC_ENCRYPTION_KEYS_PREVIOUS");
    expect(paused.statusDetail).toContain("save the sandbox key again");
    expect(paused.statusDetail).not.toContain(SANDBOX_KEY);

    const cart = await proxy("cart_updates", shop, "");
    expect(cart.status).toBe(200);
    expect(cart.body).toMatchObject({ source: "local" });
    expect(await control.requests()).toEqual([]);

    // Saving the key again (the admin or shop:connect) ends the pause.
    await connectShop(app.prisma, shop, {
      sandboxSecretKey: SANDBOX_KEY,
    });
    expect((await record(shop)).status).toBe("connected");
    expect((await proxy("plans", shop, "44590322811003")).body).not.toHaveProperty("unavailable");
  });

  it("does not pause a shop whose key was saved again after the one that failed", async () => {
    const shop = "saved-meanwhile.myshopify.com";
    const stale = await connectUnder([LOST], shop, { sandboxSecretKey: SANDBOX_KEY });
    await connectShop(app.prisma, shop, {
      sandboxSecretKey: SANDBOX_KEY,
    });
    const read = app.connections.readSecretKey(app.secrets.getSecretBox(), stale, "sandbox");
    if (read.status !== "unreadable") throw new Error(`Expected unreadable, got ${read.status}`);
    const { count } = await app.connections.markSecretUnreadable(
      app.prisma,
      shop,
      "sandbox",
      read.detail,
    );
    expect(count).toBe(0);
    expect((await record(shop)).status).toBe("connected");
  });
});

// ---------------------------------------------------------------------------------------------
// npm run svc -- keys:reseal

async function svc(argv: string[], env: Record<string, string | undefined>) {
  const command = app.args.parseCommandLine(argv);
  if (command instanceof app.args.UsageError || command.name === "help") {
    throw new Error(`Not a runnable command: ${argv.join(" ")}`);
  }
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await app.commands.runCommand(command, {
    db: app.prisma,
    env: { DATABASE_URL: process.env.DATABASE_URL, SVC_ENCRYPTION_KEY: b64(CURRENT), ...env },
    out: (line) => stdout.push(line),
    err: (message) => stderr.push(message),
  });
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
}

const reseal = (env: Record<string, string | undefined>, ...options: string[]) =>
  svc(["keys:reseal", ...options], env);

/** Both keys of each shop open with the current encryption key alone, unchanged. */
async function expectOpenWithCurrentKeyOnly(
  shop: string,
  sandbox: string | null,
  live: string | null,
) {
  const box = app.secretBox.createSecretBox([CURRENT]);
  const row = await record(shop);
  expect(app.connections.readSecretKey(box, row, "sandbox")).toEqual(
    sandbox === null ? { status: "missing" } : { status: "open", secretKey: sandbox },
  );
  expect(app.connections.readSecretKey(box, row, "production")).toEqual(
    live === null ? { status: "missing" } : { status: "open", secretKey: live },
  );
}

describe(`keys:reseal (${provider})`, () => {
  beforeEach(async () => {
    await connectUnder([OLDEST], "a-two-keys.myshopify.com", {
      sandboxSecretKey: "sk_test_a_sandbox_0001",
    });
    await connectUnder([OLDER], "a-two-keys.myshopify.com", {
      liveSecretKey: "sk_live_a_live_0002",
    });
    await connectUnder([CURRENT], "b-current.myshopify.com", {
      sandboxSecretKey: "sk_test_b_sandbox_0003",
    });
    await connectUnder([OLDER], "c-live-only.myshopify.com", {
      environment: "production",
      liveSecretKey: "sk_live_c_live_0004",
    });
    await connectUnder([LOST], "d-lost.myshopify.com", {
      sandboxSecretKey: "sk_test_d_sandbox_0005",
    });
    await app.prisma.shopConnection.create({ data: { shop: "e-no-keys.myshopify.com" } });
  });

  it("re-seals every saved key under the current key in batches, reports counts, and runs again harmlessly", async () => {
    const env = { SVC_ENCRYPTION_KEYS_PREVIOUS: `${b64(OLDER)},${b64(OLDEST)}` };
    const lastFourBefore = await app.prisma.shopConnection.findMany({
      select: { shop: true, sandboxSecretKeyLast4: true, liveSecretKeyLast4: true },
      orderBy: { shop: "asc" },
    });

    const first = await reseal(env, "--batch-size", "2", "--json");
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout)).toEqual({
      currentKeyId: idOf(CURRENT),
      counts: {
        shops: 4,
        resealed: 3,
        alreadyCurrent: 1,
        savedMeanwhile: 0,
        unreadable: 1,
        resumed: 0,
      },
      unreadable: [
        {
          shop: "d-lost.myshopify.com",
          environment: "sandbox",
          keyId: idOf(LOST),
          reason: expect.stringContaining(`encryption key ${idOf(LOST)}, which is not configured`),
        },
      ],
      sessions: {
        counts: {
          sessions: 0,
          sealed: 0,
          resealed: 0,
          alreadyCurrent: 0,
          storedMeanwhile: 0,
          unreadable: 0,
        },
        unreadable: [],
      },
    });
    expect(first.stderr).toMatch(/^1 saved key cannot be opened: add the encryption key/);

    // The earlier keys can go now: everything but the lost one opens with the current key alone.
    await expectOpenWithCurrentKeyOnly(
      "a-two-keys.myshopify.com",
      "sk_test_a_sandbox_0001",
      "sk_live_a_live_0002",
    );
    await expectOpenWithCurrentKeyOnly("b-current.myshopify.com", "sk_test_b_sandbox_0003", null);
    await expectOpenWithCurrentKeyOnly("c-live-only.myshopify.com", null, "sk_live_c_live_0004");
    expect(await sealedBy("d-lost.myshopify.com")).toEqual({ sandbox: idOf(LOST), live: null });
    expect(
      await app.prisma.shopConnection.findMany({
        select: { shop: true, sandboxSecretKeyLast4: true, liveSecretKeyLast4: true },
        orderBy: { shop: "asc" },
      }),
    ).toEqual(lastFourBefore);
    // A report is not a pause: the CLI may lack a key the app has, so statuses stay.
    expect((await record("d-lost.myshopify.com")).status).toBe("connected");

    const sealedAfterFirst = await app.prisma.shopConnection.findMany({ orderBy: { shop: "asc" } });
    const second = await reseal(env, "--batch-size", "1");
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(
      `Saved keys of 4 shops checked against encryption key ${idOf(CURRENT)}: 0 re-sealed, 4 already current, 0 saved again meanwhile (kept), 1 unreadable.`,
    );
    expect(second.stdout).toContain(
      `Unreadable: the sandbox key of d-lost.myshopify.com: Sealed secret uses encryption key ${idOf(LOST)}, which is not configured`,
    );
    // Nothing already current is written again.
    const sealedAfterSecond = await app.prisma.shopConnection.findMany({
      orderBy: { shop: "asc" },
    });
    expect(
      sealedAfterSecond.map((row) => [row.sandboxSecretKeySealed, row.liveSecretKeySealed]),
    ).toEqual(sealedAfterFirst.map((row) => [row.sandboxSecretKeySealed, row.liveSecretKeySealed]));

    // Once the lost key is saved again, a run succeeds.
    await connectShop(app.prisma, "d-lost.myshopify.com", {
      sandboxSecretKey: "sk_test_d_sandbox_0005",
    });
    const third = await reseal(env);
    expect(third).toMatchObject({ code: 0, stderr: "" });
    expect(third.stdout).toContain(
      "0 re-sealed, 5 already current, 0 saved again meanwhile (kept), 0 unreadable.",
    );
    expect(`${first.stdout}${second.stdout}${third.stdout}`).not.toMatch(/sk_(test|live)_[a-d]_/);
  });

  it("resumes where an incomplete run stopped, with the old single-key variable too", async () => {
    // A first run that knows only the oldest key, through SVC_ENCRYPTION_KEY_PREVIOUS.
    const partial = await reseal({ SVC_ENCRYPTION_KEY_PREVIOUS: b64(OLDEST) }, "--json");
    expect(partial.code).toBe(1);
    expect(JSON.parse(partial.stdout)).toMatchObject({
      counts: { shops: 4, resealed: 1, alreadyCurrent: 1, unreadable: 3 },
    });
    expect(await sealedBy("a-two-keys.myshopify.com")).toEqual({
      sandbox: idOf(CURRENT),
      live: idOf(OLDER),
    });

    const rest = await reseal({ SVC_ENCRYPTION_KEYS_PREVIOUS: b64(OLDER) }, "--json");
    expect(JSON.parse(rest.stdout)).toMatchObject({
      counts: { shops: 4, resealed: 2, alreadyCurrent: 2, unreadable: 1 },
    });
    await expectOpenWithCurrentKeyOnly(
      "a-two-keys.myshopify.com",
      "sk_test_a_sandbox_0001",
      "sk_live_a_live_0002",
    );
    await expectOpenWithCurrentKeyOnly("c-live-only.myshopify.com", null, "sk_live_c_live_0004");
  });

  it("ends the pause of a shop whose key opens again once its encryption key is restored", async () => {
    const shop = "c-live-only.myshopify.com";
    const row = await record(shop);
    const withoutOlder = app.secretBox.createSecretBox([CURRENT]);
    const read = app.connections.readSecretKey(withoutOlder, row, "production");
    if (read.status !== "unreadable") throw new Error(`Expected unreadable, got ${read.status}`);
    await app.connections.markSecretUnreadable(app.prisma, shop, "production", read.detail);
    expect((await record(shop)).status).toBe("secret_unreadable");
    expect((await record(shop)).statusDetail).toContain("live secret key cannot be opened");

    const result = await reseal(
      { SVC_ENCRYPTION_KEYS_PREVIOUS: `${b64(OLDER)},${b64(OLDEST)}` },
      "--json",
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ counts: { resealed: 3, resumed: 1 } });
    expect(await record(shop)).toMatchObject({ status: "connected", statusDetail: null });
  });

  it("keeps a key the merchant saved while it ran", async () => {
    const shop = "a-two-keys.myshopify.com";
    const stale = await record(shop);
    await connectShop(app.prisma, shop, {
      sandboxSecretKey: "sk_test_a_sandbox_new9",
    });
    const box = app.secretBox.createSecretBox([CURRENT, OLDER, OLDEST]);
    expect(await app.connections.resealSecretKey(app.prisma, box, stale, "sandbox")).toEqual({
      status: "changed",
    });
    expect(
      await app.connections.resealSecretKey(app.prisma, box, stale, "production"),
    ).toMatchObject({
      status: "resealed",
    });
    await expectOpenWithCurrentKeyOnly(shop, "sk_test_a_sandbox_new9", "sk_live_a_live_0002");
  });

  it("answers 2 for a missing current key or a malformed earlier one, changing nothing", async () => {
    const before = await app.prisma.shopConnection.findMany({ orderBy: { shop: "asc" } });
    expect(await reseal({ SVC_ENCRYPTION_KEY: undefined })).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^SVC_ENCRYPTION_KEY is required for keys:reseal/),
    });
    expect(await reseal({ SVC_ENCRYPTION_KEYS_PREVIOUS: `${b64(OLDER)},too-short` })).toMatchObject(
      {
        code: 2,
        stderr: expect.stringMatching(/^SVC_ENCRYPTION_KEYS_PREVIOUS must be 32 random bytes/),
      },
    );
    expect(await app.prisma.shopConnection.findMany({ orderBy: { shop: "asc" } })).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------
// keys:reseal and Shopify's tokens in the Session table (decision 044)

describe(`keys:reseal of Shopify's session tokens (${provider})`, () => {
  const HOUR = 3_600_000;

  /** The shop's offline session stored as the app stored it while `keys` were its keys. */
  async function storeSessionUnder(keys: Buffer[], shop: string, suffix: string) {
    const { SealedSessionStorage } = await import("../../app/models/session-storage.server");
    const { Session } = await import("@shopify/shopify-api");
    const storage = new SealedSessionStorage(app.prisma, app.secretBox.createSecretBox(keys));
    await storage.storeSession(
      new Session({
        id: `offline_${shop}`,
        shop,
        state: "",
        isOnline: false,
        accessToken: `shpat_${suffix}`,
        refreshToken: `shprt_${suffix}`,
        expires: new Date(Date.now() + HOUR),
      }),
    );
  }

  /** Which encryption key sealed each token of the shop's session, from the row as stored. */
  async function sessionSealedBy(shop: string) {
    const row = await app.prisma.session.findUniqueOrThrow({ where: { id: `offline_${shop}` } });
    const box = app.secretBox.createSecretBox([CURRENT]);
    return [row.accessToken, row.refreshToken].map((sealed) => sealed && box.keyIdOf(sealed));
  }

  /** What the app reads with the current encryption key alone. */
  async function loadWithCurrentKeyOnly(shop: string) {
    const { SealedSessionStorage } = await import("../../app/models/session-storage.server");
    const storage = new SealedSessionStorage(app.prisma, app.secretBox.createSecretBox([CURRENT]));
    const session = await storage.loadSession(`offline_${shop}`);
    return session && { accessToken: session.accessToken, refreshToken: session.refreshToken };
  }

  beforeEach(async () => {
    await storeSessionUnder([OLDER], "s-older.myshopify.com", "older_0001");
    await storeSessionUnder([CURRENT], "s-current.myshopify.com", "current_0002");
    await storeSessionUnder([LOST], "s-lost.myshopify.com", "lost_0003");
    // Stored in clear before decision 044.
    await app.prisma.session.create({
      data: {
        id: "offline_s-clear.myshopify.com",
        shop: "s-clear.myshopify.com",
        state: "",
        isOnline: false,
        accessToken: "shpat_clear_0004",
        refreshToken: "shprt_clear_0004",
      },
    });
  });

  it("seals clear tokens and seals again those of earlier keys, naming one that does not open", async () => {
    const env = { SVC_ENCRYPTION_KEYS_PREVIOUS: b64(OLDER) };
    const first = await reseal(env, "--batch-size", "3", "--json");

    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({
      counts: { shops: 0, unreadable: 0 },
      sessions: {
        counts: {
          sessions: 4,
          sealed: 1,
          resealed: 1,
          alreadyCurrent: 1,
          storedMeanwhile: 0,
          unreadable: 1,
        },
        unreadable: [
          {
            sessionId: "offline_s-lost.myshopify.com",
            shop: "s-lost.myshopify.com",
            field: "accessToken",
            keyId: idOf(LOST),
            reason: expect.stringContaining(
              `encryption key ${idOf(LOST)}, which is not configured`,
            ),
          },
        ],
      },
    });
    expect(first.stderr).toMatch(/^The Shopify tokens of 1 session cannot be opened/);
    expect(first.stdout).not.toMatch(/shp(at|rt)_/);

    // Everything but the lost session opens with the current key alone, as it was stored.
    for (const shop of ["s-older", "s-current", "s-clear"]) {
      expect(await sessionSealedBy(`${shop}.myshopify.com`)).toEqual([
        idOf(CURRENT),
        idOf(CURRENT),
      ]);
    }
    expect(await loadWithCurrentKeyOnly("s-older.myshopify.com")).toEqual({
      accessToken: "shpat_older_0001",
      refreshToken: "shprt_older_0001",
    });
    expect(await loadWithCurrentKeyOnly("s-clear.myshopify.com")).toEqual({
      accessToken: "shpat_clear_0004",
      refreshToken: "shprt_clear_0004",
    });
    expect(await sessionSealedBy("s-lost.myshopify.com")).toEqual([idOf(LOST), idOf(LOST)]);
    const rows = await app.prisma.session.findMany({ orderBy: { id: "asc" } });
    expect(JSON.stringify(rows)).not.toMatch(/shp(at|rt)_/);

    // A second run writes nothing; once the lost session is stored again, a run succeeds.
    const second = await reseal(env);
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(
      "Shopify tokens of 4 sessions: 0 sealed (were in clear), 0 re-sealed, 3 already current, 0 stored again meanwhile (kept), 1 unreadable.",
    );
    expect(second.stdout).toContain(
      `Unreadable: the accessToken of session offline_s-lost.myshopify.com: Sealed secret uses encryption key ${idOf(LOST)}, which is not configured`,
    );
    expect(await app.prisma.session.findMany({ orderBy: { id: "asc" } })).toEqual(rows);
    await storeSessionUnder([CURRENT], "s-lost.myshopify.com", "lost_new_0005");
    expect(await reseal(env)).toMatchObject({ code: 0, stderr: "" });
  });

  it("keeps tokens stored again while it ran", async () => {
    const stale = await app.prisma.session.findUniqueOrThrow({
      where: { id: "offline_s-older.myshopify.com" },
    });
    await storeSessionUnder([CURRENT], "s-older.myshopify.com", "refreshed_0006");
    const { resealSessionTokens } = await import("../../app/models/Session.server");
    const box = app.secretBox.createSecretBox([CURRENT, OLDER]);
    expect(await resealSessionTokens(app.prisma, box, stale)).toEqual({ status: "changed" });
    expect(await loadWithCurrentKeyOnly("s-older.myshopify.com")).toEqual({
      accessToken: "shpat_refreshed_0006",
      refreshToken: "shprt_refreshed_0006",
    });
  });
});
