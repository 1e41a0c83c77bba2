import type { AppEnv } from "../app/env.server";
import { parseWebhookJson } from "../app/lib/json";
import type { Catalogue } from "../emulator/catalogue";
import { mintSessionToken } from "../store/server/session-token";

// The demo that `npm run local` runs against the local Shopify store, as a merchant would set up a
// shop: the demo shop is created and the app installed into it, the sandbox key connected on the
// app's Connection page (which has the service verify it), the app's protection items created
// through its own admin action and their IDs given to the service, and a few products put on the
// Online Store. The newcomer then shops in it. With SVC_LOCAL_DEMO=lifecycle a scripted order is
// also placed, shipped, refunded and cancelled.

export const DEMO_SHOP = "svc-demo.myshopify.com";
/** shopify.app.toml's `handle`: the embedded admin is at /admin/apps/<handle>. */
export const APP_HANDLE = "svc-protection";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36";

/** What SVC_LOCAL_DEMO asks for: nothing, the shop set up (the default), or that and an order. */
export type DemoMode = "off" | "setup" | "lifecycle";

export function demoModeOf(value: string | undefined): DemoMode {
  const mode = value?.trim().toLowerCase() ?? "";
  if (mode === "" || mode === "on" || mode === "setup") return "setup";
  if (mode === "off" || mode === "lifecycle") return mode;
  throw new Error(`SVC_LOCAL_DEMO must be off, setup or lifecycle, got "${value}"`);
}

interface DemoProduct {
  title: string;
  vendor: string;
  product_type: string;
  variants: { title: string; price: string; sku: string }[];
}

/** The shop's catalogue. The first product is the one the printed product page shows. */
export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  {
    title: "Noise-cancelling headphones",
    vendor: "Nimbus",
    product_type: "Headphones",
    variants: [
      { title: "Black", price: "249.00", sku: "NIM-NC700-BLK" },
      { title: "Silver", price: "249.00", sku: "NIM-NC700-SLV" },
    ],
  },
  {
    title: "Aurora 14 laptop",
    vendor: "Nimbus",
    product_type: "Laptops",
    variants: [
      { title: "16 GB / 512 GB", price: "1099.00", sku: "NIM-AUR14-16" },
      { title: "32 GB / 1 TB", price: "1499.00", sku: "NIM-AUR14-32" },
    ],
  },
  {
    title: "City e-bike",
    vendor: "Velora",
    product_type: "Bikes",
    variants: [{ title: "Default Title", price: "2199.00", sku: "VEL-CITY-E" }],
  },
  {
    title: "Trail running shoes",
    vendor: "Stride",
    product_type: "Shoes",
    variants: [{ title: "Default Title", price: "129.00", sku: "STR-TRAIL" }],
  },
];

/**
 * The protection product the app creates for each of the service's categories. None of these
 * titles holds a category keyword, so the plans themselves are offered no plans.
 */
const PROTECTION_TITLES: Record<string, string> = {
  electronics: "Electronics protection plan",
  furniture: "Furniture protection plan",
  bikes: "Cycling protection plan",
};

export interface DemoLinks {
  productPage: string;
  cart: string;
  admin: string;
}

export function demoLinks(storeUrl: string, productHandle: string): DemoLinks {
  return {
    productPage: `${storeUrl}/products/${productHandle}`,
    cart: `${storeUrl}/cart`,
    admin: `${storeUrl}/admin/apps/${APP_HANDLE}`,
  };
}

export interface DemoOptions {
  env: Pick<AppEnv, "DATABASE_URL" | "SHOPIFY_API_KEY" | "SHOPIFY_API_SECRET">;
  appUrl: string;
  storeUrl: string;
  /** The emulator's origin with its trailing slash, as RunningEmulator.url. */
  emulatorUrl: string;
  sandboxKey: string;
  /** Also place a scripted order and ship, refund and cancel it. */
  lifecycle?: boolean;
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

/** The store starts empty on every run, so the app forgets the demo shop first, as after shop/redact. */
async function forgetDemoShop(env: DemoOptions["env"]) {
  const { createPrismaClient } = await import("../app/db/client.server");
  const { eraseShopData } = await import("../app/models/ShopData.server");
  const db = createPrismaClient(env.DATABASE_URL);
  try {
    await eraseShopData(db, DEMO_SHOP);
  } finally {
    await db.$disconnect();
  }
}

async function answerOf(answer: Response, what: string): Promise<Json> {
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${what} answered ${answer.status}: ${text.slice(0, 500)}`);
  return parseWebhookJson(text) as Json;
}

function storeControl(storeUrl: string) {
  return async (path: string, body?: unknown): Promise<Json> =>
    answerOf(
      await fetch(`${storeUrl}/__store/${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      `The store (${path})`,
    );
}

/** The embedded admin's own requests, as App Bridge sends them: a session token, for the data. */
function adminClient(options: DemoOptions) {
  return async (path: string, route: string, form?: Record<string, string>) => {
    const { token } = mintSessionToken({
      shop: DEMO_SHOP,
      apiKey: options.env.SHOPIFY_API_KEY,
      apiSecret: options.env.SHOPIFY_API_SECRET,
      userId: "1",
      now: new Date(),
    });
    return fetch(`${options.appUrl}${path}?shop=${DEMO_SHOP}&_data=${encodeURIComponent(route)}`, {
      method: form === undefined ? "GET" : "POST",
      headers: { Authorization: `Bearer ${token}`, "User-Agent": BROWSER },
      body: form === undefined ? undefined : new URLSearchParams(form),
      redirect: "manual",
    });
  };
}

/**
 * The merchant's own step 1: the Connection page's form, whose action saves the key only once the
 * service (here the emulator) accepts it, and records when it did.
 */
async function connectSandboxKey(options: DemoOptions) {
  const answer = await answerOf(
    await adminClient(options)("/app/connection", "routes/app.connection", {
      intent: "save_keys",
      environment: "sandbox",
      secretKey: options.sandboxKey,
    }),
    "The app's Connection page",
  );
  if (answer.ok !== true) {
    throw new Error(`The app did not connect the sandbox key: ${JSON.stringify(answer)}`);
  }
}

function decimal(minorUnits: number): string {
  return (minorUnits / 100).toFixed(2);
}

interface AppItem {
  variantId: string;
  priceAmount: number | null;
  category: string | null;
}

/**
 * The merchant creates a protection product per category of the service (prices as the service's
 * plans), then gives the service the items' variant IDs: on the real service through its account
 * manager (the Protection items page's "Copy all"), here by replacing the emulator's catalogue.
 */
async function setUpProtectionItems(options: DemoOptions, log: (line: string) => void) {
  const admin = adminClient(options);
  const emulator = (path: string) => new URL(`__emulator/${path}`, options.emulatorUrl);
  const catalogue = (await answerOf(
    await fetch(emulator("catalogue")),
    "The emulator (catalogue)",
  )) as unknown as Catalogue;

  for (const category of catalogue.categories) {
    const amounts = category.price_bands.flatMap((band) =>
      band.plans.map((plan) => plan.price_amount),
    );
    const prices = [...new Set(amounts)].map(decimal).join(", ");
    const title = PROTECTION_TITLES[category.id] ?? `${category.id} protection plan`;
    const created = await admin("/app/items/new", "routes/app.items_.new", {
      title,
      category: category.id,
      prices,
    });
    if (created.status >= 400) {
      throw new Error(
        `The app did not create the protection product ${title}: ${created.status} ${await created.text()}`,
      );
    }
    log(`the app created '${title}' (${prices} ${catalogue.currency.toUpperCase()})`);
  }

  const page = await answerOf(
    await admin("/app/items", "routes/app.items"),
    "The app's Protection items page",
  );
  const items = page.items as AppItem[];
  const variantOf = (category: string, priceAmount: number) =>
    items.find((item) => item.category === category && item.priceAmount === priceAmount)?.variantId;
  for (const category of catalogue.categories) {
    for (const plan of category.price_bands.flatMap((band) => band.plans)) {
      const variantId = variantOf(category.id, plan.price_amount);
      if (!variantId) {
        throw new Error(`No protection item for ${category.id} at ${decimal(plan.price_amount)}`);
      }
      plan.merchant_product_id = variantId;
    }
  }
  await answerOf(
    await fetch(emulator("catalogue"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(catalogue),
    }),
    "The emulator (catalogue)",
  );
  log(`gave the service the ${items.length} items' variant IDs (its catalogue now sells them)`);
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
  log: (line: string) => void,
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
      log(`    app → svc     ${type.padEnd(28)} ${request.status}`);
    });
    if (seen) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A scripted order with a plan, shipped, partly refunded and cancelled in the store. */
async function playOrderLifecycle(
  options: DemoOptions,
  log: (line: string) => void,
  productVariant: string,
) {
  const control = storeControl(options.storeUrl);
  const products = (await control(`shops/${DEMO_SHOP}/products`)).products as Json[];
  const plans = products.find((product) => product.title === PROTECTION_TITLES.electronics);
  const planVariant = (plans?.variants as Json[] | undefined)?.find(
    (variant) => variant.price === "19.99",
  );
  if (!planVariant) throw new Error("The shop has no 19.99 electronics protection item");

  const order = await control(`shops/${DEMO_SHOP}/orders`, {
    line_items: [
      { variant_id: productVariant, quantity: 2 },
      {
        variant_id: String(planVariant.id),
        quantity: 2,
        requires_shipping: false,
        properties: [{ name: "_svc_protected_product_ref", value: productVariant }],
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
    return printServiceEvents(options, log, orderId, until, printed);
  };

  log(`Order ${String(order.name)} (${orderId}): 2 headphones with a plan each`);
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
      ? "every step of the order reached the service"
      : "a step's event did not reach the service within 30 s; see the app's log",
  );
}

/** Sets up the demo shop (and plays an order with `lifecycle`); answers the pages to open. */
export async function runStoreDemo(options: DemoOptions): Promise<DemoLinks> {
  const log = options.log ?? ((line: string) => console.log(line));
  const control = storeControl(options.storeUrl);
  await waitForHealth(options.appUrl, 120_000);
  await forgetDemoShop(options.env);

  log(`setting up the demo shop ${DEMO_SHOP} in the local Shopify store`);
  await control("shops", {
    shop: DEMO_SHOP,
    app_url: options.appUrl,
    api_key: options.env.SHOPIFY_API_KEY,
    api_secret: options.env.SHOPIFY_API_SECRET,
    currency: "EUR",
  });
  const created: Json[] = [];
  for (const product of DEMO_PRODUCTS) {
    created.push(await control(`shops/${DEMO_SHOP}/products`, product));
  }
  log(
    `the merchant's products, on the Online Store: ${DEMO_PRODUCTS.map((product) => product.title).join(", ")}`,
  );
  await control(`shops/${DEMO_SHOP}/install`, {});
  log("installed the app (managed install, token exchange, offline session)");
  await connectSandboxKey(options);
  log(`connected the sandbox key ${options.sandboxKey} (the service accepted it)`);

  await setUpProtectionItems(options, log);
  const featured = created[0]!;
  const links = demoLinks(options.storeUrl, String(featured.handle));

  if (options.lifecycle) {
    await playOrderLifecycle(options, log, String((featured.variants as Json[])[0]!.id));
  }
  return links;
}
