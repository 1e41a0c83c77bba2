import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { EmulatorClient } from "../../emulator/test-support";
import type { AppPrismaClient } from "../../app/db/client.server";
import type { ConnectionKeysInput } from "../../app/models/ShopConnection.server";
import type { OrderEvent } from "../../app/protection/types";
import type * as ServiceModule from "../../app/services/protection.server";
import { testDatabaseProvider } from "../support/databases";
import { connectShop } from "../support/shops";

// From a shop's saved, sealed keys to a real HTTP call on the emulator: the path every later
// feature (outbox, app proxy, admin key checks) takes to reach the service.

const provider = testDatabaseProvider();
const SANDBOX_KEY = "sk_test_wiring_5e2a";
const LIVE_KEY = "sk_live_wiring_8c1d";
const SHOP = "wiring.myshopify.com";

let emulator: RunningEmulator;
let control: EmulatorClient;
let app: {
  prisma: AppPrismaClient;
  service: typeof ServiceModule;
};

beforeAll(async () => {
  emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY, port: 0 });
  control = new EmulatorClient(emulator);
  process.env.SVC_BASE_URL = emulator.url; // read by getEnv() on first use, below
  app = {
    prisma: (await import("../../app/db.server")).default,
    service: await import("../../app/services/protection.server"),
  };
});

afterAll(async () => {
  await emulator.close();
});

beforeEach(async () => {
  await control.reset();
  await app.prisma.shopConnection.deleteMany({});
});

async function saved(input: ConnectionKeysInput) {
  return connectShop(app.prisma, SHOP, input);
}

const placed: OrderEvent = {
  type: "order_placed",
  payload: {
    order_id: "5558016491833",
    placed_at: "2026-11-21T10:15:30.000Z",
    order_currency: "eur",
    customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
    customer_billing_address: {
      address_line_1: "Unter den Linden 1",
      address_line_2: "",
      city: "Berlin",
      country: "de",
      zip: "10117",
    },
    line_items: [
      {
        id: "13587040321849",
        quantity: 1,
        price_amount: 79900,
        product_id: "44590322893113",
        product_title: "Laptop 14",
        product_brand: "Acme",
      },
    ],
  },
};

describe(`service client built from a shop's saved keys (${provider})`, () => {
  it("sends the shop's events to the sandbox with the sandbox key and chosen version", async () => {
    const connection = await saved({ sandboxSecretKey: SANDBOX_KEY, apiVersion: "v1.1" });
    const built = app.service.protectionClientForShop(connection);
    expect(built.status).toBe("ready");
    if (built.status !== "ready") return;

    const result = await built.client.sendOrderEvent(placed);
    expect(result.kind).toBe("success");
    const [request] = await control.requests();
    expect(request).toMatchObject({
      method: "POST",
      path: "/sandbox/events",
      environment: "sandbox",
      status: 200,
    });
    expect(request?.headers["svc-version"]).toBe("v1.1");
    expect((await control.state("sandbox")).orders.map((order) => order.order_id)).toEqual([
      "5558016491833",
    ]);
    expect((await control.state("production")).orders).toEqual([]);
  });

  it("uses the live key and the production address once the shop is in production", async () => {
    const connection = await saved({
      sandboxSecretKey: SANDBOX_KEY,
      liveSecretKey: LIVE_KEY,
      environment: "production",
    });
    const built = app.service.protectionClientForShop(connection);
    if (built.status !== "ready") throw new Error(built.message);
    expect((await built.client.sendOrderEvent(placed)).kind).toBe("success");
    const [request] = await control.requests();
    expect(request).toMatchObject({ path: "/events", environment: "production", status: 200 });
    expect(request?.headers["svc-version"]).toBe("v2.0");
  });

  it("reports a rejected key as unauthorized, without the key in the result", async () => {
    const connection = await saved({ sandboxSecretKey: "sk_test_revoked_0000" });
    const built = app.service.protectionClientForShop(connection);
    if (built.status !== "ready") throw new Error(built.message);
    const result = await built.client.sendOrderEvent(placed);
    expect(result.kind).toBe("unauthorized");
    expect(JSON.stringify(result)).not.toContain("sk_test_revoked_0000");
  });

  it("says which key is missing instead of calling the service", async () => {
    const connection = await saved({ sandboxSecretKey: SANDBOX_KEY });
    const built = app.service.protectionClientForShop(connection, "production");
    expect(built).toEqual({
      status: "no_key",
      environment: "production",
      message: `No live secret key is saved for ${SHOP}`,
    });
    expect(await control.requests()).toEqual([]);
  });
});
