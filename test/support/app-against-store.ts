import { expect } from "vitest";
import { parseWebhookJson } from "../../app/lib/json";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { EmulatorClient, LIVE_KEY, SANDBOX_KEY } from "../../emulator/test-support";
import { freePort } from "../../scripts/bench/processes";
import { startStore, type RunningStore, type StoreOptions } from "../../store/server/server";
import { BROWSER_USER_AGENT } from "../storefront/browser";
import { startProductionServer, type RunningServer } from "./production-server";
import { laptopPlansCatalogue } from "./service-catalogue";
import { sessionToken } from "./session-token";
import { connectShop } from "./shops";
import { addShopToStore } from "./store-control";

/*
 * The built app as a process (`npm start`) against a local Shopify store and the protection-service
 * emulator of its own: the whole conversation over real HTTP, webhooks included. The store's
 * control API answers with IDs above 2^53, read here losslessly.
 */

export interface AppAgainstStore {
  emulator: RunningEmulator;
  service: EmulatorClient;
  store: RunningStore;
  server: RunningServer;
  /** A control API call: GET without a body, POST with one. */
  control(path: string, body?: unknown): Promise<ControlAnswer>;
  /**
   * An admin form post as App Bridge sends it: a fetch with a session token for `shop`, asking
   * for the route's data (`route`, e.g. "routes/app.items_.new").
   */
  adminPost(
    shop: string,
    path: string,
    route: string,
    form: Record<string, string>,
  ): Promise<Response>;
  /** The end of the app's log, to append to a failure's message. */
  explain(): string;
  stop(): Promise<void>;
}

export interface ControlAnswer {
  status: number;
  text: string;
  body: Record<string, unknown>;
}

/** `storeOptions` go to the store on top of the defaults (e.g. `storefrontApp`). */
export async function startAppAgainstStore(
  storeOptions: StoreOptions = {},
): Promise<AppAgainstStore> {
  const emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY, port: 0 });
  const store = await startStore({
    port: 0,
    host: "127.0.0.1",
    retryDelaysMs: [200, 500, 1_000],
    ...storeOptions,
  });
  const port = await freePort();
  const server = await startProductionServer(
    {
      // The local store is refused in production: the built app runs as in development, which
      // keeps its embedded workers (a test process has none).
      NODE_ENV: "development",
      SHOPIFY_ADMIN_ORIGIN: store.url,
      SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
      SVC_BASE_URL: emulator.url,
    },
    { port },
  );
  return {
    emulator,
    service: new EmulatorClient(emulator),
    store,
    server,
    async control(path, body) {
      const answer = await fetch(`${store.url}/__store/${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, text, body: parseWebhookJson(text) as ControlAnswer["body"] };
    },
    adminPost(shop, path, route, form) {
      const url = `${server.url}${path}?shop=${shop}&_data=${encodeURIComponent(route)}`;
      return fetch(url, {
        method: "POST",
        // The Shopify libraries answer bots 410.
        headers: {
          Authorization: `Bearer ${sessionToken(shop)}`,
          "User-Agent": BROWSER_USER_AGENT,
        },
        body: new URLSearchParams(form),
        redirect: "manual",
      });
    },
    explain: () => `\nThe app's log:\n${server.output().slice(-4_000)}`,
    async stop() {
      await server.stop();
      await store.close();
      await emulator.close();
    },
  };
}

/** Polls `read` until it answers a value; the time-out's message names `what`. */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T | undefined>,
  explain: () => string = () => "",
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${explain()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface StoreProduct {
  id: string;
  handle: string;
  title: string;
  status?: string;
  variants: { id: string; price: string }[];
}

/**
 * A shop of the store that sells laptops with plans, set up as a merchant does: the app is
 * installed and connected with the default settings, a laptop with `variants` is on sale, the
 * merchant created the protection product in the app's admin (Protection items → Create), and
 * the service's plans for laptops are its variants (the merchant's item list, "Copy all").
 */
export async function sellLaptopsWithPlans(
  stack: AppAgainstStore,
  shop: string,
  variants: { title: string; price: string }[] = [{ title: "14 inch", price: "249.00" }],
): Promise<{ laptop: StoreProduct; planVariants: StoreProduct["variants"] }> {
  const control = async <Body>(path: string, body?: unknown): Promise<Body> => {
    const answer = await stack.control(path, body);
    expect(answer.status, `${path}: ${answer.text}`).toBeLessThan(300);
    return answer.body as Body;
  };
  await addShopToStore(stack.store.url, shop, stack.server.url);
  expect((await control<{ installed: boolean }>(`shops/${shop}/install`, {})).installed).toBe(true);
  const { default: prisma } = await import("../../app/db.server");
  await connectShop(prisma, shop);

  const laptop = await control<StoreProduct>(`shops/${shop}/products`, {
    title: "Aurora 14 Laptop",
    vendor: "Nimbus",
    product_type: "Laptops",
    variants,
  });
  const created = await stack.adminPost(shop, "/app/items/new", "routes/app.items_.new", {
    title: "Accident protection",
    prices: "19.99, 39.99",
  });
  expect(created.status, stack.explain()).toBeLessThan(400);
  const { products } = await control<{ products: StoreProduct[] }>(`shops/${shop}/products`);
  const plan = products.find((product) => product.title === "Accident protection");
  expect(plan?.status, JSON.stringify(products)).toBe("UNLISTED");
  const catalogue = await stack.service.control("catalogue", {
    body: laptopPlansCatalogue(plan!.variants),
  });
  expect(catalogue.status).toBe(200);
  return { laptop, planVariants: plan!.variants };
}
