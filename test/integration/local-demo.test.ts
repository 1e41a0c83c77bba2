import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSecretBox } from "../../app/crypto/secrets.server";
import prisma from "../../app/db.server";
import { listProtectionItems } from "../../app/models/ProtectionItem.server";
import { getShopConnection, openSecretKey } from "../../app/models/ShopConnection.server";
import { SANDBOX_KEY } from "../../emulator/test-support";
import { devOutput } from "../../scripts/dev-output";
import {
  APP_HANDLE,
  DEMO_PRODUCTS,
  DEMO_SHOP,
  runStoreDemo,
  type DemoLinks,
} from "../../scripts/local-demo";
import { BROWSER_USER_AGENT } from "../storefront/browser";
import { startAppAgainstStore, type AppAgainstStore } from "../support/app-against-store";
import { testDatabaseProvider } from "../support/databases";
import { sessionToken } from "../support/session-token";
import { TEST_API_KEY, TEST_API_SECRET } from "../support/test-env";

// README command 1's demo without its scripted order: run against the built app, the local store
// and the emulator, it must leave the demo shop as a newcomer finds it (installed, its sandbox key
// verified by the service as the Connection page verifies a merchant's, protection items the
// service sells, products on the Online Store) and print the three pages.

interface StoreProduct {
  id: string;
  title: string;
  handle: string;
  publications: { name: string | null }[];
  variants: { id: string; title: string; price: string }[];
}

describe(`the local demo's set-up (${testDatabaseProvider()})`, () => {
  let app: AppAgainstStore;
  let links: DemoLinks;
  let printed = "";

  beforeAll(async () => {
    app = await startAppAgainstStore();
    const out = devOutput(false, (text) => (printed += text));
    const run = () =>
      runStoreDemo({
        env: {
          DATABASE_URL: process.env.DATABASE_URL!,
          SHOPIFY_API_KEY: TEST_API_KEY,
          SHOPIFY_API_SECRET: TEST_API_SECRET,
        },
        appUrl: app.server.url,
        storeUrl: app.store.url,
        emulatorUrl: app.emulator.url,
        sandboxKey: SANDBOX_KEY,
        log: (line) => out.line(line),
      });
    // The second run is `bash scripts/dev.sh` again: a fresh store and service, the same database.
    await run();
    expect((await fetch(`${app.store.url}/__store/reset`, { method: "POST" })).status).toBe(204);
    await app.service.reset();
    printed = "";
    links = await run();
    out.links(links, []);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  async function storeProducts(): Promise<StoreProduct[]> {
    const answer = await app.control(`shops/${DEMO_SHOP}/products`);
    return (answer.body as { products: StoreProduct[] }).products;
  }

  it("installs the app into the demo shop and connects the sandbox key", async () => {
    const shop = await app.control(`shops/${DEMO_SHOP}`);
    expect(shop.body).toMatchObject({ shop: DEMO_SHOP, installed: true });
    const connection = await getShopConnection(prisma, DEMO_SHOP);
    expect(connection).not.toBeNull();
    expect(openSecretKey(getSecretBox(), connection!, "sandbox")).toBe(SANDBOX_KEY);
  });

  it("connects the key through the Connection page, which has the service verify it", async () => {
    const connection = await getShopConnection(prisma, DEMO_SHOP);
    expect(connection?.sandboxKeyVerifiedAt).toBeInstanceOf(Date);
    expect(connection?.status).toBe("connected");
    // The app's key check reached the service (reset before the second run) and passed.
    const checks = (await app.service.requests()).filter(
      (request) => request.query.product_id === "svc-key-check",
    );
    expect(checks.map(({ environment, status }) => ({ environment, status }))).toEqual([
      { environment: "sandbox", status: 200 },
    ]);
  });

  it("shows step 1 of the admin home's checklist done, as it says Connected", async () => {
    const answer = await fetch(
      `${app.server.url}/app?shop=${DEMO_SHOP}&_data=${encodeURIComponent("routes/app._index")}`,
      {
        headers: {
          Authorization: `Bearer ${sessionToken(DEMO_SHOP)}`,
          "User-Agent": BROWSER_USER_AGENT,
        },
      },
    );
    expect(answer.status, app.explain()).toBe(200);
    const home = (await answer.json()) as {
      connection: { status: string } | null;
      checklist: { steps: { id: string; done: boolean }[] };
    };
    expect(home.connection?.status).toBe("connected");
    expect(home.checklist.steps[0]).toMatchObject({ id: "sandbox_key", done: true });
  });

  it("puts the merchant's products, with their variants, on the Online Store", async () => {
    const products = await storeProducts();
    for (const wanted of DEMO_PRODUCTS) {
      const product = products.find((candidate) => candidate.title === wanted.title);
      expect(product, wanted.title).toBeDefined();
      expect(product!.variants.map(({ title, price }) => ({ title, price }))).toEqual(
        wanted.variants.map(({ title, price }) => ({ title, price })),
      );
      expect(product!.publications.map((publication) => publication.name)).toEqual([
        "Online Store",
      ]);
    }
    expect(DEMO_PRODUCTS.some((product) => product.variants.length > 1)).toBe(true);
  });

  it("creates a protection item for every plan the service sells, and the service sells them", async () => {
    const items = await listProtectionItems(prisma, DEMO_SHOP);
    const catalogue = (await (
      await fetch(new URL("__emulator/catalogue", app.emulator.url))
    ).json()) as {
      categories: { price_bands: { plans: { merchant_product_id: string }[] }[] }[];
    };
    const sold = catalogue.categories.flatMap((category) =>
      category.price_bands.flatMap((band) => band.plans.map((plan) => plan.merchant_product_id)),
    );
    expect(items.length).toBe(12);
    expect(sold.toSorted()).toEqual(items.map((item) => item.variantId).toSorted());
    const storeVariants = (await storeProducts()).flatMap((product) =>
      product.variants.map((variant) => variant.id),
    );
    expect(storeVariants).toEqual(expect.arrayContaining(sold));

    // The printed product page's product is protectable: the service offers plans for it,
    // each one a protection item of the shop.
    const featured = (await storeProducts()).find(
      (product) => product.title === DEMO_PRODUCTS[0]!.title,
    )!;
    const plans = await app.service.call<{ plans: { merchant_product_id: string }[] }>(
      `plans?product_id=${featured.variants[0]!.id}&price_amount=24900&price_currency=eur&product_title=${encodeURIComponent(featured.title)}`,
    );
    expect(plans.status).toBe(200);
    expect(plans.body.plans.length).toBeGreaterThan(0);
    for (const plan of plans.body.plans) expect(sold).toContain(plan.merchant_product_id);
  });

  it("prints the product page, the cart and the embedded admin on the store's origin", async () => {
    const featured = (await storeProducts()).find(
      (product) => product.title === DEMO_PRODUCTS[0]!.title,
    )!;
    expect(links).toEqual({
      productPage: `${app.store.url}/products/${featured.handle}`,
      cart: `${app.store.url}/cart`,
      admin: `${app.store.url}/admin/apps/${APP_HANDLE}`,
    });
    expect(featured.handle).toBe("noise-cancelling-headphones");
    for (const link of Object.values(links)) expect(printed).toContain(` ${link}\n`);
    // Only the set-up: the scripted order is SVC_LOCAL_DEMO=lifecycle's.
    const orders = (await app.service.state("sandbox")).orders;
    expect(orders).toEqual([]);
  });
});
