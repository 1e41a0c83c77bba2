import { beforeEach, describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../app/cli/args";
import { runCommand, type CliEnv } from "../../app/cli/commands.server";
import prisma from "../../app/db.server";
import { recordInstallation, recordUninstall } from "../../app/models/ShopConnection.server";
import { redactEventPayload } from "../../app/privacy/customer-data";
import { findCustomerData } from "../../app/privacy/customer-data.server";
import { action as customersDataRequest } from "../../app/routes/webhooks.customers.data_request";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { action as ordersCreate } from "../../app/routes/webhooks.orders.create";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import { readLifecycleFixture } from "../fixtures/lifecycle/lifecycle";
import { testDatabaseProvider } from "../support/databases";
import { createOfflineSession } from "../support/offline-session";
import { callRoute } from "../support/routes";
import { signedWebhookRequest } from "../support/webhooks";

// Issue 13, defects 8 and 10 (decision 015): only signed facts choose the shop and the work, and
// customers/redact, customers/data_request and the retention period cover all personal data.

const provider = testDatabaseProvider();
const SHOP = "privacy-store.myshopify.com";
const OTHER_SHOP = "privacy-other.myshopify.com";
const DAY_MS = 24 * 60 * 60 * 1_000;

function placed(orderId: string, email: string) {
  return JSON.stringify({
    type: "order_placed",
    payload: {
      order_id: orderId,
      placed_at: "2026-11-20T10:00:00.000Z",
      order_currency: "eur",
      customer: { first_name: "John", last_name: "Smith", email },
      customer_billing_address: {
        address_line_1: "1 Main St",
        city: "Berlin",
        zip: "10115",
        country: "de",
      },
      line_items: [],
    },
  });
}

async function seedEvent(
  orderId: string,
  email: string,
  fields: { status?: string; createdAt?: Date; shop?: string } = {},
) {
  return prisma.outboxEvent.create({
    data: {
      shop: fields.shop ?? SHOP,
      environment: "sandbox",
      orderId,
      eventType: "order_placed",
      dedupeKey: `order:${orderId}:placed`,
      payload: placed(orderId, email),
      status: fields.status ?? "pending",
      ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
      lastResponse: fields.status === "dead" ? `{"error":"email ${email} rejected"}` : null,
    },
  });
}

/** A signed compliance body: shop_domain names the shop, IDs are written as raw JSON numbers. */
function complianceBody(
  shop: string,
  fields: { customerId?: string; email?: string; orders?: string[]; key?: string } = {},
) {
  const orders = (fields.orders ?? []).join(",");
  return `{"shop_id":954889,"shop_domain":"${shop}","customer":{"id":${fields.customerId ?? 191167},"email":"${fields.email ?? "nobody@example.com"}","phone":"555-625-1199"},"${fields.key ?? "orders_to_redact"}":[${orders}]}`;
}

/** orders/create with the lifecycle fixture's customer, that cannot be mapped (no line items). */
function unprocessableOrderBody() {
  return readLifecycleFixture("orders-create.json")
    .replaceAll('"line_items":', '"line_items_gone":')
    .replace('"browser_ip": null', '"browser_ip": "203.0.113.9"');
}

async function send(
  route: typeof shopRedact,
  options: { topic: string; shop: string; body: string },
): Promise<number> {
  const answer = await callRoute(route, signedWebhookRequest(options));
  if (!(answer instanceof Response)) throw new Error("A webhook route must answer a Response");
  return answer.status;
}

async function svc(argv: string[], env: CliEnv = {}) {
  const command = parseCommandLine(argv);
  if (command instanceof UsageError || command.name === "help") throw new Error(argv.join(" "));
  const stdout: string[] = [];
  const code = await runCommand(command, {
    db: prisma,
    env,
    out: (line) => stdout.push(line),
    err: (line) => stdout.push(line),
  });
  return { code, stdout: stdout.join("\n") };
}

async function payloadOf(id: number) {
  return (await prisma.outboxEvent.findUniqueOrThrow({ where: { id } })).payload;
}

/** One send of the event, as the worker logs it, with the service's answer. */
function seedAttempt(eventId: number, detail: string, startedAt = new Date()) {
  return prisma.outboxAttempt.create({
    data: {
      eventId,
      shop: SHOP,
      attempt: 1,
      environment: "sandbox",
      workerId: "worker",
      idempotencyKey: `key-${eventId}`,
      startedAt,
      finishedAt: startedAt,
      outcome: "dead",
      httpStatus: 422,
      detail,
    },
  });
}

async function attemptDetail(id: number) {
  return (await prisma.outboxAttempt.findUniqueOrThrow({ where: { id } })).detail;
}

beforeEach(async () => {
  await prisma.outboxEvent.deleteMany({});
  await prisma.outboxAttempt.deleteMany({});
  await prisma.webhookReceipt.deleteMany({});
  await prisma.orderSummary.deleteMany({});
  await prisma.session.deleteMany({});
  await prisma.shopConnection.deleteMany({});
  for (const shop of [SHOP, OTHER_SHOP]) {
    await recordInstallation(prisma, shop, "read_orders");
    await createOfflineSession(prisma, shop, "shpat_test", "read_orders");
  }
});

describe(`signed facts choose the topic and the shop (${provider})`, () => {
  it("an order route refuses a delivery whose X-Shopify-Topic is another topic", async () => {
    const body = readLifecycleFixture("orders-create.json");
    const status = await send(ordersCreate, { topic: "orders/cancelled", shop: SHOP, body });

    expect(status).toBe(400);
    expect(await prisma.webhookReceipt.count()).toBe(0);
    expect(await prisma.outboxEvent.count()).toBe(0);
  });

  it("shop/redact refuses another topic's delivery and erases nothing", async () => {
    const body = complianceBody(SHOP, {});
    const status = await send(shopRedact, { topic: "customers/redact", shop: SHOP, body });

    expect(status).toBe(400);
    expect(await prisma.shopConnection.count({ where: { shop: SHOP } })).toBe(1);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("shop/redact erases the shop its signed body names, never the header's", async () => {
    await seedEvent("1001", "john@example.com");
    await seedEvent("1001", "john@example.com", { shop: OTHER_SHOP });
    const replayed = `{"shop_id":954889,"shop_domain":"${OTHER_SHOP}"}`;

    expect(await send(shopRedact, { topic: "shop/redact", shop: SHOP, body: replayed })).toBe(400);
    expect(await prisma.shopConnection.count()).toBe(2);
    expect(await prisma.outboxEvent.count()).toBe(2);

    // Shopify sends shop/redact 48 hours after the uninstall (decision 045).
    await recordUninstall(prisma, OTHER_SHOP);
    await prisma.shopConnection.update({
      where: { shop: OTHER_SHOP },
      data: { uninstalledAt: new Date(Date.now() - 2 * DAY_MS) },
    });
    expect(await send(shopRedact, { topic: "shop/redact", shop: OTHER_SHOP, body: replayed })).toBe(
      200,
    );
    expect(await prisma.shopConnection.findMany({ select: { shop: true } })).toEqual([
      { shop: SHOP },
    ]);
    expect(await prisma.outboxEvent.count({ where: { shop: SHOP } })).toBe(1);
  });

  it.each([
    ["customers/redact", customersRedact, "orders_to_redact"],
    ["customers/data_request", customersDataRequest, "orders_requested"],
  ] as const)(
    "%s refuses a header that is not the signed shop_domain",
    async (topic, route, key) => {
      const event = await seedEvent("1001", "john@example.com");
      const body = complianceBody(OTHER_SHOP, { email: "john@example.com", orders: ["1001"], key });

      expect(await send(route, { topic, shop: SHOP, body })).toBe(400);
      expect(await payloadOf(event.id)).toContain("john@example.com");
      expect(await prisma.webhookReceipt.count()).toBe(0);
    },
  );

  it.each([
    "evil.example.com",
    "Privacy-Store.myshopify.com",
    "privacy-store.myshopify.com.evil.io",
  ])("refuses an order for the shop domain %s and stores nothing", async (shop) => {
    const body = readLifecycleFixture("orders-create.json");
    expect(await send(ordersCreate, { topic: "orders/create", shop, body })).toBe(400);
    expect(await prisma.webhookReceipt.count()).toBe(0);
    expect(await prisma.outboxEvent.count()).toBe(0);
  });

  it("refuses an order for a shop that never installed the app and stores nothing", async () => {
    const body = readLifecycleFixture("orders-create.json");
    const shop = "never-installed.myshopify.com";
    expect(await send(ordersCreate, { topic: "orders/create", shop, body })).toBe(404);
    expect(await prisma.webhookReceipt.count()).toBe(0);
    expect(await prisma.outboxEvent.count()).toBe(0);
    expect(await prisma.orderSummary.count()).toBe(0);
  });
});

describe(`customers/redact and customers/data_request cover everything held (${provider})`, () => {
  it("matches the customer's e-mail whatever its case", async () => {
    const event = await seedEvent("1001", "John.Smith@Example.COM");
    const body = complianceBody(SHOP, { email: "john.smith@EXAMPLE.com" });

    expect(await send(customersRedact, { topic: "customers/redact", shop: SHOP, body })).toBe(200);

    const redacted = JSON.parse(await payloadOf(event.id));
    expect(redacted.payload.customer).toEqual({ first_name: "", last_name: "", email: "" });
    expect(redacted.payload.customer_billing_address).toEqual({
      address_line_1: "",
      city: "",
      zip: "",
    });
    // Not yet delivered: still sent, with everything but the personal data.
    expect(redacted.payload.order_id).toBe("1001");
    expect(await prisma.outboxEvent.findUnique({ where: { id: event.id } })).toMatchObject({
      status: "pending",
      orderId: "1001",
    });
  });

  it("cuts the customer's values out of the attempt log too, the longest first", async () => {
    const event = await seedEvent("1001", "john.smith@example.com");
    const other = await seedEvent("1002", "jane.doe@example.com");
    const quoted = await seedAttempt(
      event.id,
      '422 {"error":"\\"john.smith@example.com\\" is not accepted for John Smith, 1 Main St"}',
    );
    const kept = await seedAttempt(other.id, '422 "jane.doe@example.com" is not accepted');
    const body = complianceBody(SHOP, { email: "john.smith@example.com" });

    expect(await send(customersRedact, { topic: "customers/redact", shop: SHOP, body })).toBe(200);

    expect(await attemptDetail(quoted.id)).toBe(
      '422 {"error":"\\"[redacted]\\" is not accepted for [redacted] [redacted], [redacted]"}',
    );
    expect(await attemptDetail(kept.id)).toBe('422 "jane.doe@example.com" is not accepted');
  });

  it("reads a shop's kept raw bodies a page at a time for a data request", async () => {
    const order = unprocessableOrderBody();
    const rows = Array.from({ length: 250 }, (_, index) => ({
      shop: SHOP,
      topic: "orders/create",
      webhookId: `kept-${index}`,
      status: "unprocessable",
      orderId: `${7000 + index}`,
      payload:
        index === 17 || index === 230 ? order : order.replaceAll("john@example.com", "x@y.z"),
    }));
    await prisma.webhookReceipt.createMany({ data: rows });
    const pages: number[] = [];
    const receipts = prisma.webhookReceipt;
    const counting = new Proxy(prisma, {
      get(target, property) {
        if (property !== "webhookReceipt") return Reflect.get(target, property);
        return {
          findMany: async (args: Parameters<typeof receipts.findMany>[0]) => {
            const found = await receipts.findMany(args);
            pages.push(found.length);
            return found;
          },
        };
      },
    });

    const held = await findCustomerData(counting, SHOP, {
      orderIds: [],
      email: "john@example.com",
      customerId: null,
    });

    expect(held.filter((record) => record.kind === "receipt")).toHaveLength(2);
    expect(pages.length).toBeGreaterThan(1);
    expect(Math.max(...pages)).toBeLessThanOrEqual(100);
  });

  it("matches order IDs past 2^53 exactly", async () => {
    const asked = await seedEvent("9007199254740993", "first@example.com");
    const neighbour = await seedEvent("9007199254740992", "second@example.com");
    const body = complianceBody(SHOP, { orders: ["9007199254740993"] });

    expect(await send(customersRedact, { topic: "customers/redact", shop: SHOP, body })).toBe(200);

    expect(await payloadOf(asked.id)).not.toContain("first@example.com");
    expect(await payloadOf(neighbour.id)).toContain("second@example.com");
  });

  it("reports and redacts the raw body an unprocessable receipt kept", async () => {
    const order = unprocessableOrderBody();
    expect(await send(ordersCreate, { topic: "orders/create", shop: SHOP, body: order })).toBe(200);
    const kept = await prisma.webhookReceipt.findFirstOrThrow({ where: { shop: SHOP } });
    expect(kept.status).toBe("unprocessable");
    expect(kept.payload).toContain("203.0.113.9");

    // Found by the e-mail alone, in another case.
    const request = complianceBody(SHOP, { email: "JOHN@example.com", key: "orders_requested" });
    expect(
      await send(customersDataRequest, {
        topic: "customers/data_request",
        shop: SHOP,
        body: request,
      }),
    ).toBe(200);
    const report = await prisma.webhookReceipt.findFirstOrThrow({
      where: { topic: "customers/data_request" },
    });
    expect(report.detail).toContain(
      `Holds personal data in 0 event(s) and 1 receipt(s). order 5558016491833: orders/create receipt ${kept.id} (unprocessable, raw body): `,
    );
    expect(report.detail).toContain(
      "billing_address, browser_ip, contact_email, customer, customer_locale, email",
    );
    expect(report.detail).not.toContain("john@example.com");

    // Found by the customer ID alone: 115310627314723950 is past 2^53.
    const redact = complianceBody(SHOP, { customerId: "115310627314723950" });
    expect(
      await send(customersRedact, { topic: "customers/redact", shop: SHOP, body: redact }),
    ).toBe(200);
    const redacted = await prisma.webhookReceipt.findUniqueOrThrow({ where: { id: kept.id } });
    for (const personal of ["john@example.com", "jon@example.com", "203.0.113.9", "Smith"]) {
      expect(redacted.payload).not.toContain(personal);
    }
    expect(JSON.parse(redacted.payload!)).toMatchObject({
      svc_redacted: { reason: "customers/redact" },
      id: 5558016491833,
      customer: null,
    });
    expect(redacted).toMatchObject({ status: "unprocessable", orderId: "5558016491833" });
    expect(redacted.detail).toContain("raw body redacted (customers/redact)");
  });
});

describe(`customer data expires after the retention period (${provider})`, () => {
  it("data:purge scrubs settled events and receipts past the period and keeps the rows", async () => {
    const now = Date.now();
    const old = new Date(now - 100 * DAY_MS);
    const recent = new Date(now - 10 * DAY_MS);
    const delivered = await seedEvent("2001", "a@example.com", {
      status: "delivered",
      createdAt: old,
    });
    const dead = await seedEvent("2002", "b@example.com", { status: "dead", createdAt: old });
    const pending = await seedEvent("2003", "c@example.com", { status: "pending", createdAt: old });
    const fresh = await seedEvent("2004", "d@example.com", {
      status: "delivered",
      createdAt: recent,
    });
    const receipt = (receivedAt: Date, webhookId: string) =>
      prisma.webhookReceipt.create({
        data: {
          shop: SHOP,
          topic: "orders/create",
          webhookId,
          status: "unprocessable",
          orderId: "5558016491833",
          payload: unprocessableOrderBody(),
          receivedAt,
        },
      });
    const oldReceipt = await receipt(old, "old");
    const freshReceipt = await receipt(recent, "fresh");
    // The Order status page's customer match (decision 034): the order's customer ID expires too.
    const summary = (orderId: string, placedAt: Date) =>
      prisma.orderSummary.create({
        data: {
          shop: SHOP,
          orderId,
          environment: "sandbox",
          placedAt,
          currency: "eur",
          lineCount: 1,
          planLineCount: 0,
          planRevenue: 0,
          variantIds: "[]",
          customerId: "191167",
        },
      });
    await summary("2001", old);
    await summary("2004", recent);
    const customerOf = async (orderId: string) =>
      (
        await prisma.orderSummary.findUniqueOrThrow({
          where: { shop_orderId: { shop: SHOP, orderId } },
        })
      ).customerId;

    expect(await svc(["data:purge", "--days", "90"])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(
        "(90 days): 2 event(s), 1 receipt raw body(ies), 1 order customer ID(s).",
      ),
    });
    expect(await customerOf("2001")).toBeNull();
    expect(await customerOf("2004")).toBe("191167");

    for (const [event, email] of [
      [delivered, "a@example.com"],
      [dead, "b@example.com"],
    ] as const) {
      const row = await prisma.outboxEvent.findUniqueOrThrow({ where: { id: event.id } });
      expect(row.payload).not.toContain(email);
      expect(row.payload).not.toContain("1 Main St");
      expect(row.lastResponse ?? "").not.toContain(email);
      expect(row.status).toBe(event.status);
    }
    expect(await payloadOf(pending.id)).toContain("c@example.com");
    expect(await payloadOf(fresh.id)).toContain("d@example.com");
    const purged = await prisma.webhookReceipt.findUniqueOrThrow({ where: { id: oldReceipt.id } });
    expect(purged.payload).not.toContain("john@example.com");
    expect(purged.payload).toContain('"reason":"retention"');
    expect(purged.status).toBe("unprocessable");
    const kept = await prisma.webhookReceipt.findUniqueOrThrow({ where: { id: freshReceipt.id } });
    expect(kept.payload).toContain("john@example.com");

    // Again: nothing left to scrub. A shorter period from the environment reaches the recent ones.
    expect((await svc(["data:purge", "--days", "90"])).stdout).toContain(
      "0 event(s), 0 receipt raw body(ies)",
    );
    expect((await svc(["data:purge"], { SVC_CUSTOMER_DATA_RETENTION_DAYS: "5" })).stdout).toContain(
      "(5 days): 1 event(s), 1 receipt raw body(ies), 1 order customer ID(s).",
    );
    expect(await customerOf("2004")).toBeNull();
    expect(await payloadOf(fresh.id)).not.toContain("d@example.com");
    expect(await payloadOf(pending.id)).toContain("c@example.com");
  });

  it("data:purge scrubs the attempt log of what it scrubs, and e-mails in older attempts", async () => {
    const old = new Date(Date.now() - 100 * DAY_MS);
    const dead = await seedEvent("2101", "jane.doe@example.com", {
      status: "dead",
      createdAt: old,
    });
    const quoted = await seedAttempt(dead.id, '422 "jane.doe@example.com" is not accepted', old);
    // Redacted before attempts were: its values are gone, the address in its attempt is not.
    const earlier = await seedEvent("2102", "x@example.com", { status: "dead", createdAt: old });
    await prisma.outboxEvent.update({
      where: { id: earlier.id },
      data: { payload: redactEventPayload(earlier.payload) },
    });
    const leftOver = await seedAttempt(earlier.id, '422 "Max.Muster@Example.org" is invalid', old);
    const recent = await seedAttempt(earlier.id, '422 "new@example.org" is invalid');

    expect((await svc(["data:purge", "--days", "90"])).code).toBe(0);

    expect(await attemptDetail(quoted.id)).toBe('422 "[redacted]" is not accepted');
    expect(await attemptDetail(leftOver.id)).toBe('422 "[redacted]" is invalid');
    expect(await attemptDetail(recent.id)).toBe('422 "new@example.org" is invalid');
  });
});
