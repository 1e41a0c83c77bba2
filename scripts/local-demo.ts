import type { AppEnv } from "../app/env.server";
import { parseWebhookJson } from "../app/lib/json";
import { mintSessionToken } from "../store/server/session-token";

// The demo that `npm run local` runs against the local Shopify store: the demo shop is created
// and the app installed into it, the merchant adds products and the app's protection product,
// then a buyer's order with a plan is shipped, partly refunded and cancelled in the store. Every
// step is a real store action; its webhooks reach the app, and the app's events the emulator.

export const DEMO_SHOP = "svc-demo.myshopify.com";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36";

interface DemoOptions {
  env: AppEnv;
  appUrl: string;
  storeUrl: string;
  emulatorUrl: string;
  sandboxKey: string;
  log?: (line: string) => void;
}

type Json = Record<string, unknown>;

async function waitForHealth(appUrl: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(new URL("/healthz", appUrl))).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The app did not answer ${appUrl}/healthz within ${timeoutMs / 1000} s`);
}

/**
 * The store starts empty on every run, so the app forgets the demo shop first, as after
 * shop/redact; then the shop's sandbox key is saved as the Connection page saves it.
 */
async function withAppDatabase(env: AppEnv, work: "forget" | "connect", sandboxKey: string) {
  const { createPrismaClient } = await import("../app/db/client.server");
  const db = createPrismaClient(env.DATABASE_URL);
  try {
    if (work === "forget") {
      const { eraseShopData } = await import("../app/models/ShopData.server");
      await eraseShopData(db, DEMO_SHOP);
      return;
    }
    const { getSecretBox } = await import("../app/crypto/secrets.server");
    const { saveConnectionKeys } = await import("../app/models/ShopConnection.server");
    await saveConnectionKeys(db, getSecretBox(), DEMO_SHOP, {
      environment: "sandbox",
      sandboxSecretKey: sandboxKey,
    });
  } finally {
    await db.$disconnect();
  }
}

function storeControl(storeUrl: string) {
  return async (path: string, body?: unknown): Promise<Json> => {
    const answer = await fetch(`${storeUrl}/__store/${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`The store answered ${answer.status} to ${path}: ${text}`);
    return parseWebhookJson(text) as Json;
  };
}

interface ServiceRequest {
  path: string;
  status: number;
  body: { type?: string; payload?: { order_id?: string } } | null;
}

async function serviceRequests(emulatorUrl: string): Promise<ServiceRequest[]> {
  const answer = await fetch(new URL("__emulator/requests", emulatorUrl));
  return ((await answer.json()) as { requests: ServiceRequest[] }).requests;
}

/** Waits until the emulator has an event of type `until` for the order, printing each event. */
async function printServiceEvents(
  options: DemoOptions,
  orderId: string,
  until: string,
  printed: Set<number>,
) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const requests = await serviceRequests(options.emulatorUrl);
    let seen = false;
    requests.forEach((request, index) => {
      if (request.body?.payload?.order_id !== orderId || printed.has(index)) return;
      printed.add(index);
      const type = request.body?.type ?? "?";
      seen ||= type === until;
      (options.log ?? console.log)(`      app → svc     ${type.padEnd(28)} ${request.status}`);
    });
    if (seen) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function runStoreDemo(options: DemoOptions): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  const control = storeControl(options.storeUrl);
  await waitForHealth(options.appUrl, 120_000);
  await withAppDatabase(options.env, "forget", options.sandboxKey);

  log(`\nDemo shop ${DEMO_SHOP} in the local Shopify store (${options.storeUrl}):`);
  await control("shops", {
    shop: DEMO_SHOP,
    app_url: options.appUrl,
    api_key: options.env.SHOPIFY_API_KEY,
    api_secret: options.env.SHOPIFY_API_SECRET,
    currency: "EUR",
  });
  await control(`shops/${DEMO_SHOP}/install`, {});
  log("  installed the app (managed install, token exchange, offline session)");
  await withAppDatabase(options.env, "connect", options.sandboxKey);
  log(`  connected the sandbox key ${options.sandboxKey}`);

  const headphones = await control(`shops/${DEMO_SHOP}/products`, {
    title: "Noise-cancelling headphones",
    variants: [{ title: "Default Title", price: "249.00" }],
  });
  await control(`shops/${DEMO_SHOP}/products`, {
    title: "Trail running shoes",
    variants: [{ title: "Default Title", price: "129.00" }],
  });
  const headphonesVariant = String((headphones.variants as Json[])[0]!.id);

  const { token } = mintSessionToken({
    shop: DEMO_SHOP,
    apiKey: options.env.SHOPIFY_API_KEY,
    apiSecret: options.env.SHOPIFY_API_SECRET,
    userId: "1",
    now: new Date(),
  });
  const created = await fetch(
    `${options.appUrl}/app/items/new?shop=${DEMO_SHOP}&_data=${encodeURIComponent("routes/app.items_.new")}`,
    {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "User-Agent": BROWSER },
      body: new URLSearchParams({ title: "Accident protection", prices: "19.99, 39.99" }),
      redirect: "manual",
    },
  );
  if (created.status >= 400) {
    throw new Error(`The app did not create the protection product: ${created.status}`);
  }
  const products = (await control(`shops/${DEMO_SHOP}/products`)).products as Json[];
  const plan = products.find((product) => product.title === "Accident protection");
  const planVariant = (plan?.variants as Json[] | undefined)?.find(
    (variant) => variant.price === "39.99",
  );
  if (!planVariant) throw new Error("The protection product has no 39.99 variant in the store");
  log("  the app created the protection product 'Accident protection' (19.99, 39.99 EUR)");

  const order = await control(`shops/${DEMO_SHOP}/orders`, {
    line_items: [
      { variant_id: headphonesVariant, quantity: 2 },
      {
        variant_id: String(planVariant.id),
        quantity: 2,
        requires_shipping: false,
        properties: [{ name: "_svc_protected_product_ref", value: headphonesVariant }],
      },
    ],
    customer: { email: "ada@example.com", first_name: "Ada", last_name: "Lovelace" },
  });
  const orderId = String(order.id);
  const [productLine, planLine] = (order.line_items as Json[]).map((line) => String(line.id));
  const printed = new Set<number>();
  const step = async (what: string, until: string, act?: () => Promise<unknown>) => {
    await act?.();
    log(`  ${what}`);
    return printServiceEvents(options, orderId, until, printed);
  };

  log(`\nOrder ${String(order.name)} (${orderId}): 2 headphones with a plan each`);
  let delivered = await step("buyer placed the order", "order_placed");
  delivered &&= await step("merchant shipped one pair", "order_fulfillment_added", () =>
    control(`shops/${DEMO_SHOP}/orders/${orderId}/fulfillments`, {
      line_items: [{ id: productLine, quantity: 1 }],
    }),
  );
  delivered &&= await step("merchant refunded one plan", "order_refund_added", () =>
    control(`shops/${DEMO_SHOP}/orders/${orderId}/refunds`, {
      refund_line_items: [{ line_item_id: planLine, quantity: 1, restock_type: "no_restock" }],
    }),
  );
  delivered &&= await step("merchant cancelled the rest, with a refund", "order_cancelled", () =>
    control(`shops/${DEMO_SHOP}/orders/${orderId}/cancel`, { reason: "customer", refund: true }),
  );
  log(
    delivered
      ? `\nEvery step reached the service. Inspect: ${options.emulatorUrl}__emulator/state?environment=sandbox` +
          `\nThe store's webhooks and Admin API log: ${options.storeUrl}/__store/webhooks, ${options.storeUrl}/__store/graphql\n`
      : "\nA step's event did not reach the service within 30 s; see the app's log.\n",
  );
}
