import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadAppConfig } from "./app-config";
import { startStore } from "./server";
import { SCOPES, SHOP, startFakeApp, withTestStore, type FakeApp } from "./test-support";

/*
 * Bulk operations over HTTP, as the app meets them: the mutation and polls on the Admin API, the
 * file downloaded from the operation's URL with a plain fetch, bulk_operations/finish for an app
 * that subscribes to it, and the control API's failures, page delays and seeding.
 */

const appConfig = loadAppConfig();
appConfig.subscriptions.push({
  topics: ["bulk_operations/finish"],
  uri: "/webhooks/bulk_operations/finish",
});
const client = withTestStore({ appConfig, retryDelaysMs: [] });
let app: FakeApp;

beforeAll(async () => {
  app = await startFakeApp();
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  app.received.length = 0;
  await client.createShop(app.url);
  client.store.state.install(SHOP, SCOPES);
});

interface Operation {
  id: string;
  status: string;
  errorCode: string | null;
  objectCount: string;
  rootObjectCount: string;
  url: string | null;
  partialDataUrl: string | null;
}

async function adminGraphql(
  storeUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ data: Record<string, unknown> }> {
  const token = client.store.state.shop(SHOP)?.installation?.offlineAccessToken ?? "";
  const response = await fetch(`${storeUrl}/shops/${SHOP}/admin/api/2026-10/graphql.json`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-access-token": token },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { data: Record<string, unknown> };
}

const ORDERS = `{ orders { edges { node { id lineItems { edges { node { id } } } } } } }`;

async function startBulk(storeUrl = client.store.url): Promise<string> {
  const answer = await adminGraphql(
    storeUrl,
    `mutation Run($query: String!) {
      bulkOperationRunQuery(query: $query) { bulkOperation { id status } userErrors { message } }
    }`,
    { query: ORDERS },
  );
  const payload = answer.data.bulkOperationRunQuery as {
    bulkOperation: { id: string; status: string };
    userErrors: unknown[];
  };
  expect(payload.userErrors).toEqual([]);
  expect(payload.bulkOperation.status).toBe("CREATED");
  return payload.bulkOperation.id;
}

async function poll(id: string, storeUrl = client.store.url): Promise<Operation> {
  const answer = await adminGraphql(
    storeUrl,
    `query Poll($id: ID!) {
      bulkOperation(id: $id) { id status errorCode objectCount rootObjectCount url partialDataUrl }
    }`,
    { id },
  );
  return answer.data.bulkOperation as Operation;
}

/** Polls as an app does until the operation is in one of `statuses`. */
async function pollUntil(id: string, statuses: string[], storeUrl?: string): Promise<Operation> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const operation = await poll(id, storeUrl);
    if (statuses.includes(operation.status)) return operation;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Bulk operation ${id} never reached ${statuses.join(" or ")}`);
}

async function seed(count: number): Promise<void> {
  const answer = await client.control(`shops/${SHOP}/orders/seed`, {
    count,
    line_items: [{ title: "Walnut side table", price: "149.00" }],
  });
  expect(answer.status, answer.text).toBe(201);
}

describe("a bulk query over HTTP", () => {
  it("runs in the background (RUNNING while slowed), then serves its JSONL at a URL without a token", async () => {
    await seed(30);
    const slowed = await client.control(`shops/${SHOP}/bulk_operations/page_delay`, {
      page_delay_ms: 60_000,
    });
    expect(slowed.body).toEqual({ shop: SHOP, page_delay_ms: 60_000 });
    const id = await startBulk();
    const running = await pollUntil(id, ["RUNNING"]);
    expect(running).toMatchObject({ objectCount: "0", url: null });
    const listed = await client.control<{ bulk_operations: { status: string }[] }>(
      `shops/${SHOP}/bulk_operations`,
    );
    expect(listed.body.bulk_operations).toEqual([expect.objectContaining({ status: "RUNNING" })]);

    await client.control(`shops/${SHOP}/bulk_operations/page_delay`, { page_delay_ms: 0 });
    const done = await pollUntil(id, ["COMPLETED"]);
    expect(done.rootObjectCount).toBe("30");
    expect(done.url?.startsWith(`${client.store.url}/__store/bulk/`)).toBe(true);

    const file = await fetch(done.url ?? "");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("application/jsonl");
    const lines = (await file.text()).trimEnd().split("\n");
    expect(lines).toHaveLength(Number(done.objectCount));
    const forged = new URL(done.url ?? "");
    forged.searchParams.set("signature", "0".repeat(32));
    expect((await fetch(forged)).status).toBe(403);

    await client.control("webhooks/idle?timeout_ms=5000");
    const finish = app.received.filter(
      (request) => request.url === "/webhooks/bulk_operations/finish",
    );
    expect(finish).toHaveLength(1);
    expect(finish[0]?.headers["x-shopify-topic"]).toBe("bulk_operations/finish");
    expect(JSON.parse(finish[0]?.body ?? "")).toEqual({
      admin_graphql_api_id: id,
      completed_at: expect.any(String),
      created_at: expect.any(String),
      error_code: null,
      status: "completed",
      type: "query",
    });
  });

  it("fails the shop's next operation as the control API asks, with its partial data", async () => {
    await seed(5);
    const asked = await client.control(`shops/${SHOP}/bulk_operations/fail_next`, {
      error_code: "TIMEOUT",
      after_objects: 2,
    });
    expect(asked.body).toEqual({ shop: SHOP, error_code: "TIMEOUT", after_objects: 2 });
    const failed = await pollUntil(await startBulk(), ["FAILED", "COMPLETED"]);
    expect(failed).toMatchObject({ status: "FAILED", errorCode: "TIMEOUT", url: null });
    const partial = await fetch(failed.partialDataUrl ?? "");
    expect((await partial.text()).trimEnd().split("\n")).toHaveLength(2);

    await client.control("webhooks/idle?timeout_ms=5000");
    const finish = app.received.find((request) => request.url.endsWith("bulk_operations/finish"));
    expect(JSON.parse(finish?.body ?? "")).toMatchObject({
      status: "failed",
      error_code: "timeout",
      completed_at: null,
    });
    const listed = await client.control<{ bulk_operations: Record<string, unknown>[] }>(
      `shops/${SHOP}/bulk_operations`,
    );
    expect(listed.body.bulk_operations[0]).toMatchObject({
      status: "FAILED",
      error_code: "TIMEOUT",
      failure: expect.any(String),
      object_count: 2,
    });
  });

  it("refuses control bodies it cannot act on", async () => {
    const badCode = await client.control(`shops/${SHOP}/bulk_operations/fail_next`, {
      error_code: "OOPS",
    });
    expect(badCode.status).toBe(400);
    const noDelay = await client.control(`shops/${SHOP}/bulk_operations/page_delay`, {});
    expect(noDelay.status).toBe(400);
    const unknownShop = await client.control("shops/nope.myshopify.com/bulk_operations");
    expect(unknownShop.status).toBe(404);
  });

  it("sends no bulk_operations/finish to an app whose toml does not subscribe to it", async () => {
    const plain = await startStore({ port: 0, retryDelaysMs: [] });
    try {
      const shop = await fetch(`${plain.url}/__store/shops`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          shop: SHOP,
          app_url: app.url,
          api_key: "key",
          api_secret: "secret",
        }),
      });
      expect(shop.status).toBe(201);
      const installation = plain.state.install(SHOP, SCOPES);
      plain.state.createOrder(SHOP, { lineItems: [{ title: "Stool", price: 4900, quantity: 1 }] });
      const response = await fetch(`${plain.url}/shops/${SHOP}/admin/api/2026-10/graphql.json`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-shopify-access-token": installation.offlineAccessToken,
        },
        body: JSON.stringify({
          query: `mutation { bulkOperationRunQuery(query: "{ orders { edges { node { id } } } }") { bulkOperation { id } } }`,
        }),
      });
      const id = (
        (await response.json()) as {
          data: { bulkOperationRunQuery: { bulkOperation: { id: string } } };
        }
      ).data.bulkOperationRunQuery.bulkOperation.id;
      await plain.bulk.settled(id.replace(/\D+/, ""));
      const webhooks = (await (await fetch(`${plain.url}/__store/webhooks`)).json()) as {
        deliveries: { topic: string }[];
        pending: number;
      };
      expect(webhooks.pending).toBe(0);
      expect(webhooks.deliveries.map((delivery) => delivery.topic)).not.toContain(
        "bulk_operations/finish",
      );
    } finally {
      await plain.close();
    }
  });
});

describe("POST /__store/shops/:shop/orders/seed", () => {
  it("creates 10,000 orders in one call, without a webhook", async () => {
    await client.control(`shops/${SHOP}/products`, {
      title: "Laptop",
      variants: [{ title: "13 inch", price: "999.00" }],
    });
    const answer = await client.control<Record<string, unknown>>(`shops/${SHOP}/orders/seed`, {
      count: 10_000,
      created_from: "2026-01-01T00:00:00Z",
      created_to: "2026-02-01T00:00:00Z",
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({
      count: 10_000,
      created_from: "2026-01-01T00:00:00.000Z",
      created_to: "2026-02-01T00:00:00.000Z",
    });
    expect(answer.body.protected).toBeGreaterThan(0);
    expect(client.store.state.orders(SHOP)).toHaveLength(10_000);
    const webhooks = await client.control<{ deliveries: unknown[]; pending: number }>("webhooks");
    expect(webhooks.body).toMatchObject({ deliveries: [], pending: 0 });
  });

  it("refuses a count out of range, an unknown variant and a window that ends in the future", async () => {
    const tooMany = await client.control(`shops/${SHOP}/orders/seed`, { count: 0 });
    expect(tooMany.status).toBe(400);
    const unknown = await client.control(`shops/${SHOP}/orders/seed`, {
      count: 1,
      line_items: [{ variant_id: "9007199254740993" }],
    });
    expect(unknown.status).toBe(422);
    const future = await client.control(`shops/${SHOP}/orders/seed`, {
      count: 1,
      line_items: [{ title: "Stool", price: "49.00" }],
      created_to: "2999-01-01T00:00:00Z",
    });
    expect(future.status).toBe(422);
    expect(client.store.state.orders(SHOP)).toEqual([]);
  });
});
