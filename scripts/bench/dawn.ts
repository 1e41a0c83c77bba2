// npm run bench:dawn [-- --runs 5 --warm-up 1 --reports <dir>]
// Lighthouse (mobile) on Dawn 15.4.1 as the local store serves it (decision 031): the product
// page with our app block and embed on and with both off, and the cart page with a product and
// its plan against the product alone without the extension. The offer's plans come from the
// built app (`npm start`) through the store's app proxy, and the app asks the emulator. Figures
// go to docs/performance.md. Exits 0 on a missed target (it is a benchmark); 1 only when the
// benchmark itself failed.

import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Browser } from "playwright-core";
import { startAppAgainstStore, type AppAgainstStore } from "../../test/support/app-against-store";
import { laptopPlansCatalogue } from "../../test/support/service-catalogue";
import { connectShop } from "../../test/support/shops";
import { applyTestEnv, TEST_API_KEY, TEST_API_SECRET } from "../../test/support/test-env";
import { CHROMIUM_PATH } from "../../test/storefront/browser";
import { themeDirOf } from "../../store/storefront/theme/files";
import { accountCpu, processTreeCpu } from "./cpu";
import {
  DAWN_SECTION,
  renderDawnSection,
  caseName,
  type DawnCart,
  type DawnCase,
  type DawnPage,
  type DawnResult,
  type DawnRun,
} from "./dawn-report";
import { launchBenchChromium, runLighthouse } from "./lighthouse";
import { cleanUpAll, onCleanup, runBenchmark, setUpThrowawaySqlite } from "./lifecycle";
import { assertExtensionUnchanged, extensionFingerprint, offerHeights } from "./extension";
import { ensureBuild } from "./processes";
import { benchCommand, describeMachine, publishSection } from "./report";
import { BenchmarkError, positiveInteger } from "./stats";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SHOP = "svc-dawn-bench.myshopify.com";
const EXTENSION_ASSETS = "/cdn/shop/extensions/svc-protection/assets/";
/** Lighthouse's mobile screen (Moto G Power). */
const MOBILE = { width: 412, height: 823 };
const PRODUCT = {
  title: "Aurora 14 Laptop",
  vendor: "Nimbus",
  product_type: "Laptops",
  variants: [{ title: "Default Title", price: "1299.00" }],
};
const PLAN_PRICES = ["49.00", "99.00"];
const PROTECTED_PROPERTY = "_svc_protected_product_ref";
/** GETs of each page and setting to time the store's render. */
const RENDERS = 10;

const options = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    "warm-up": { type: "string", default: "1" },
    /** A directory to keep every run's Lighthouse report in (JSON), e.g. to compare two runs. */
    reports: { type: "string" },
  },
}).values;

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Set-up: the built app against the local store and an emulator (test/support/app-against-store),
// as a merchant would set up the shop: install, sandbox key, a product on the Online Store, the
// protection items created by the app's own admin action, their variant IDs given to the service.

async function setUp() {
  // Dawn is measured only where SHOPIFY_THEMES_DIR gives it: without, this names how to get it.
  themeDirOf("dawn");
  applyTestEnv();
  // Every plans lookup reaches the service: the app's cache-miss path, as bench:storefront.
  process.env.SVC_PLANS_CACHE_TTL_SECONDS = "0";
  await setUpThrowawaySqlite();
  ensureBuild(ROOT);

  // Read by the store on every request: one store, one catalogue, both settings; Dawn published.
  const switches = { block: true, embed: true, theme: "dawn" as const };
  const app = await startAppAgainstStore({ storefrontApp: switches, storefrontShop: SHOP });
  onCleanup(() => app.stop());
  const control = async (at: string, body?: unknown) => {
    const answer = await app.control(at, body);
    if (answer.status >= 300) {
      throw new BenchmarkError(`The store answered ${answer.status} to ${at}: ${answer.text}`);
    }
    return answer.body;
  };

  await control("shops", {
    shop: SHOP,
    app_url: app.server.url,
    api_key: TEST_API_KEY,
    api_secret: TEST_API_SECRET,
    currency: "EUR",
  });
  await control(`shops/${SHOP}/install`, {});
  const prisma = (await import("../../app/db.server")).default;
  onCleanup(async () => {
    await prisma.$disconnect();
    globalThis.svcPrismaGlobal = undefined;
  });
  await connectShop(prisma, SHOP);

  const product = await control(`shops/${SHOP}/products`, PRODUCT);
  const variantId = String((product.variants as Json[])[0]?.id);
  const created = await app.adminPost(SHOP, "/app/items/new", "routes/app.items_.new", {
    title: "Accident protection",
    prices: PLAN_PRICES.join(", "),
    category: "",
  });
  if (created.status >= 400) {
    throw new BenchmarkError(`The app did not create the protection items: ${created.status}`);
  }
  const products = (await control(`shops/${SHOP}/products`)).products as Json[];
  const planVariants = (
    (products.find((candidate) => candidate.title === "Accident protection")?.variants ??
      []) as Json[]
  ).map((variant) => ({ id: String(variant.id), price: String(variant.price) }));
  if (planVariants.length !== PLAN_PRICES.length) {
    throw new BenchmarkError(`The protection product has ${planVariants.length} variants`);
  }
  await setServiceCatalogue(app, planVariants);
  return { app, switches, variantId, planVariantId: planVariants[0]!.id, handle: product.handle };
}

type Bench = Awaited<ReturnType<typeof setUp>>;

/** The service sells the shop's protection items for laptops, as a merchant's copied IDs say. */
async function setServiceCatalogue(app: AppAgainstStore, plans: { id: string; price: string }[]) {
  const catalogue = laptopPlansCatalogue(plans);
  const answer = await fetch(new URL("__emulator/catalogue", app.emulator.url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(catalogue),
  });
  if (!answer.ok) throw new BenchmarkError(`The emulator refused the catalogue: ${answer.status}`);
}

/** Milliseconds from each GET of `url` to the whole page, one after the other. */
async function timeRenders(url: string, cookie: string | undefined, count: number) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await fetch(url, cookie ? { headers: { cookie } } : {});
    await answer.text();
    if (!answer.ok) throw new BenchmarkError(`GET ${url}: ${answer.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

/** A cart of the store's Ajax Cart API, by its token: the `cart` cookie Lighthouse sends. */
async function cartWith(bench: Bench, items: Json[]): Promise<string> {
  const answer = await fetch(`${bench.app.store.url}/cart/add.js`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ items }),
  });
  const token = /(?:^|;\s*)cart=([^;]+)/.exec(answer.headers.get("set-cookie") ?? "")?.[1];
  if (!answer.ok || !token) {
    throw new BenchmarkError(`/cart/add.js answered ${answer.status}: ${await answer.text()}`);
  }
  return token;
}

async function cartLines(bench: Bench, token: string): Promise<string> {
  const answer = await fetch(`${bench.app.store.url}/cart.js`, {
    headers: { cookie: `cart=${token}` },
  });
  const cart = (await answer.json()) as { items: { quantity: number; properties: Json | null }[] };
  return cart.items
    .map((item) => `${item.quantity}×${item.properties?.[PROTECTED_PROPERTY] ? "plan" : "product"}`)
    .join(" + ");
}

// ---------------------------------------------------------------------------------------------
// Checks in Chromium before measuring: the offer shows the service's plans (through the app
// proxy and the app), nothing of ours is on the page with the switches off, and the offer's
// reserved height against its shown height at Lighthouse's mobile width.

async function checkPages(bench: Bench, browser: Browser) {
  const url = `${bench.app.store.url}/products/${String(bench.handle)}`;
  const context = await browser.newContext({ viewport: MOBILE });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(url, { waitUntil: "load" });
    const offer = page.locator("[data-svc-offer]");
    await offer.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 15_000 });
    const plans = await offer.locator("[data-svc-plans] [data-svc-plan]").count();
    if (plans !== PLAN_PRICES.length) {
      throw new BenchmarkError(`The offer shows ${plans} plans, not ${PLAN_PRICES.length}`);
    }
    if (errors.length) throw new BenchmarkError(`${url}: page errors: ${errors.join("; ")}`);
  } finally {
    await context.close();
  }
  bench.switches.block = bench.switches.embed = false;
  const bare = await (await fetch(url)).text();
  bench.switches.block = bench.switches.embed = true;
  if (bare.includes("data-svc-") || bare.includes("svc-protection")) {
    throw new BenchmarkError("With the block and embed off the page still has the extension");
  }
  return offerHeights(browser, url, MOBILE);
}

// ---------------------------------------------------------------------------------------------

async function measure(bench: Bench, runs: number, warmUp: number, logDir: string) {
  const productUrl = `${bench.app.store.url}/products/${String(bench.handle)}`;
  const cartUrl = `${bench.app.store.url}/cart`;
  const tokens: Record<DawnCart, string> = {
    plan: await cartWith(bench, [
      { id: bench.variantId, quantity: 1 },
      {
        id: bench.planVariantId,
        quantity: 1,
        properties: { [PROTECTED_PROPERTY]: bench.variantId },
      },
    ]),
    alone: await cartWith(bench, [{ id: bench.variantId, quantity: 1 }]),
  };
  const readCarts = async (): Promise<Record<DawnCart, string>> => ({
    plan: await cartLines(bench, tokens.plan),
    alone: await cartLines(bench, tokens.alone),
  });
  const carts = await readCarts();
  // Each page's settings. The cart page with our plan line but the extension off tells what the
  // second line costs Dawn, apart from what our embed costs.
  const pages: { page: DawnPage; url: string; cases: Omit<DawnCase, "page">[] }[] = [
    {
      page: "product",
      url: productUrl,
      cases: [
        { withExtension: true, cart: null },
        { withExtension: false, cart: null },
      ],
    },
    {
      page: "cart",
      url: cartUrl,
      cases: [
        { withExtension: true, cart: "plan" },
        { withExtension: false, cart: "alone" },
        { withExtension: false, cart: "plan" },
      ],
    },
  ];
  const setUpCase = ({ withExtension, cart }: Omit<DawnCase, "page">) => {
    bench.switches.block = bench.switches.embed = withExtension;
    return cart ? { extraHeaders: { Cookie: `cart=${tokens[cart]}` } } : {};
  };

  const cpu = accountCpu({ bench: processTreeCpu(process.pid) });
  const counted: DawnRun[] = [];
  let version = "";
  let settings = "";
  const total = pages.reduce((sum, page) => sum + page.cases.length, 0) * (warmUp + runs);
  let done = 0;
  for (let pair = 0; pair < warmUp + runs; pair++) {
    for (const { page, url, cases } of pages) {
      // Interleaved, each round in the other order than the one before, so drift hits all alike.
      for (const setting of pair % 2 === 0 ? cases : [...cases].reverse()) {
        const name = caseName({ page, ...setting });
        const result = await runLighthouse({
          url,
          preset: "mobile",
          logDir,
          extensionAssets: EXTENSION_ASSETS,
          bootupThresholdMs: 0,
          ...(options.reports
            ? {
                reportFile: path.join(
                  options.reports,
                  `${done + 1}-${name.replaceAll(" ", "-")}.json`,
                ),
              }
            : {}),
          ...setUpCase(setting),
        });
        ({ version, settings } = result);
        const run: DawnRun = { ...result.metrics, page, ...setting };
        const countedRun = pair >= warmUp;
        console.log(
          `  Lighthouse ${++done}/${total} ${name}${countedRun ? "" : " (warm-up)"}: score ${run.score}, FCP ${run.fcpMs.toFixed(0)} ms, LCP ${run.lcpMs.toFixed(0)} ms, TBT ${run.tbtMs.toFixed(0)} ms, CLS ${run.cls.toFixed(4)}, extension scripts ${run.extensionScriptMs.toFixed(1)} ms, server ${run.serverResponseMs.toFixed(0)} ms`,
        );
        if (countedRun) counted.push(run);
      }
    }
  }
  const cpuUse = cpu();
  const cartsAfter = await readCarts();
  if (cartsAfter.plan !== carts.plan || cartsAfter.alone !== carts.alone) {
    throw new BenchmarkError(
      `The carts changed during the runs: ${JSON.stringify(carts)} → ${JSON.stringify(cartsAfter)}`,
    );
  }

  // The store's own render time, outside Lighthouse: what every page waits for before its HTML.
  const renders: DawnResult["serverRender"]["pages"] = [];
  for (const { page, url, cases } of pages) {
    for (const setting of cases) {
      const { extraHeaders } = setUpCase(setting);
      renders.push({ page, ...setting, ms: await timeRenders(url, extraHeaders?.Cookie, RENDERS) });
    }
  }
  bench.switches.block = bench.switches.embed = true;
  return { runs: counted, version, settings, carts, renders, cpu: cpuUse };
}

async function main(logDir: string) {
  const runs = positiveInteger("runs", options.runs, 1);
  const warmUp = positiveInteger("warm-up", options["warm-up"], 0);
  if (options.reports) mkdirSync(options.reports, { recursive: true });
  if (!existsSync(CHROMIUM_PATH)) {
    throw new BenchmarkError(`No Chromium at ${CHROMIUM_PATH}: run bash scripts/browser.sh`);
  }
  const fingerprint = extensionFingerprint();

  console.log("Setting up: throwaway SQLite database, the built app, the local store, emulator");
  const bench = await setUp();

  const productUrl = `${bench.app.store.url}/products/${String(bench.handle)}`;
  const firstRenderMs = (await timeRenders(productUrl, undefined, 1))[0]!;
  console.log(`  first render of the product page after the start: ${firstRenderMs.toFixed(0)} ms`);

  console.log("Chromium: the offer shows its plans; nothing of ours with the switches off");
  const browser = await launchBenchChromium();
  const closeBrowser = onCleanup(() => browser.close());
  const chromiumVersion = browser.version();
  const reserved = await checkPages(bench, browser);
  await closeBrowser();
  console.log(
    `  offer at ${reserved.viewport}: ${reserved.reservedHeight.toFixed(1)} px reserved, ${reserved.readyHeight.toFixed(1)} px with its plans`,
  );

  console.log(`Lighthouse (mobile): ${warmUp} warm-up + ${runs} runs of each page, interleaved`);
  const measured = await measure(bench, runs, warmUp, logDir);
  assertExtensionUnchanged(fingerprint);
  await cleanUpAll();

  const result: DawnResult = {
    runs: measured.runs,
    warmUpRuns: warmUp,
    lighthouse: measured.version,
    chromium: `Chromium ${chromiumVersion} (${CHROMIUM_PATH}, headless)`,
    settings: measured.settings,
    carts: measured.carts,
    reserved,
    cpu: measured.cpu,
    serverRender: { firstMs: firstRenderMs, pages: measured.renders },
  };
  const command = benchCommand("bench:dawn");
  await publishSection(
    DAWN_SECTION,
    renderDawnSection(describeMachine("not pinned"), command, result),
  );
}

await runBenchmark("dawn", main);
