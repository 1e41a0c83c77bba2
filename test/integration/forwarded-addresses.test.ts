import { randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appProxyRequest, plansQuery } from "../support/app-proxy";
import { withOutboxApp } from "../support/outbox-app";
import { startProductionServer, type RunningServer } from "../support/production-server";
import { callRoute } from "../support/routes";
import { checkoutSessionToken } from "../support/session-token";
import { connectShop } from "../support/shops";

/*
 * Who a request is from, as the rate limits count it (issue 27, defect 3; decision 043): never an
 * X-Forwarded-For entry the client wrote. The app proxy's visitor is the address Shopify's proxy
 * forwarded (the rightmost entry with no proxy of ours); the buyer link routes' is the socket's
 * address, which only server/serve.ts knows, so they are asked over HTTP of `npm start`.
 */

const VISITOR_BURST = 4;
const LIMITS = {
  SVC_PROXY_CLIENT_BURST: String(VISITOR_BURST),
  SVC_PROXY_CLIENT_RATE_PER_SECOND: "0.1",
};
// Read by getEnv() on first use, after this; the production server gets them as its own.
Object.assign(process.env, LIMITS);

const SHOP = "forwarded-for.myshopify.com";
const app = withOutboxApp();

afterAll(() => {
  for (const name of Object.keys(LIMITS)) delete process.env[name];
});

/** An address the client makes up for each request. */
const madeUp = () => `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;

const accepted = (statuses: number[]) => statuses.filter((status) => status !== 429).length;

describe("the app proxy's visitor", () => {
  beforeEach(async () => {
    (await import("../../app/storefront/proxy-http.server")).forgetRateLimits();
    await app.prisma.shopConnection.deleteMany({});
    await connectShop(app.prisma, SHOP);
  });

  async function plansStatus(forwardedFor: string) {
    const { loader } = await import("../../app/routes/proxy.plans");
    const signed = appProxyRequest({
      path: "plans",
      shop: SHOP,
      query: plansQuery("44105305964857"),
    });
    const request = new Request(signed.url, { headers: { "X-Forwarded-For": forwardedFor } });
    return ((await callRoute(loader, request)) as Response).status;
  }

  it("is the address Shopify forwarded, whatever the visitor wrote before it", async () => {
    const statuses: number[] = [];
    for (let request = 0; request < 3 * VISITOR_BURST; request += 1) {
      statuses.push(await plansStatus(`${madeUp()}, ${madeUp()}, 203.0.113.9`));
    }
    expect(accepted(statuses)).toBe(VISITOR_BURST);
    expect(statuses.at(-1)).toBe(429);
    // Another address Shopify forwards is another visitor.
    expect(await plansStatus("198.51.100.4")).not.toBe(429);
  });
});

describe("the buyer link routes behind npm start", () => {
  let server: RunningServer;

  beforeAll(async () => {
    await connectShop(app.prisma, SHOP);
    server = await startProductionServer(LIMITS);
  }, 60_000);

  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  async function linkStatus(forwardedFor: string) {
    const answer = await fetch(`${server.url}/api/checkout/protection-link?order_id=9100001`, {
      headers: {
        // A new token each time: only the address can tie the requests together.
        Authorization: `Bearer ${checkoutSessionToken(SHOP)}`,
        Origin: "https://extensions.shopifycdn.com",
        // The library answers 410 to a user agent it takes for a bot (fetch's own is one).
        "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0",
        "X-Forwarded-For": forwardedFor,
      },
    });
    await answer.arrayBuffer();
    return answer.status;
  }

  it("count a client by its socket's address: a made-up X-Forwarded-For each time is refused after the burst", async () => {
    const statuses: number[] = [];
    for (let request = 0; request < 3 * VISITOR_BURST; request += 1) {
      statuses.push(await linkStatus(madeUp()));
    }
    expect(accepted(statuses), statuses.join(" ")).toBe(VISITOR_BURST);
    expect(statuses.at(-1)).toBe(429);
    // Accepted ones are answered (none: the order is not the shop's), not failed.
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
  });
});
