import { shopifyWebhookHeaders } from "../app/cli/sign-webhook";
import type { AppEnv } from "../app/env.server";
import { LIFECYCLE, readLifecycleFixture } from "../test/fixtures/lifecycle/lifecycle";

// The sample order lifecycle that `npm run local` replays: a newcomer sees the app's whole
// job (Shopify webhooks in, protection-service events out) within a minute of starting it.

export const DEMO_SHOP = "svc-demo.myshopify.com";

interface DemoOptions {
  env: AppEnv;
  appUrl: string;
  emulatorUrl: string;
  sandboxKey: string;
  log?: (line: string) => void;
}

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

async function connectDemoShop(env: AppEnv, sandboxKey: string) {
  const { createPrismaClient } = await import("../app/db/client.server");
  const { getSecretBox } = await import("../app/crypto/secrets.server");
  const { saveConnectionKeys } = await import("../app/models/ShopConnection.server");
  const db = createPrismaClient(env.DATABASE_URL);
  try {
    await saveConnectionKeys(db, getSecretBox(), DEMO_SHOP, {
      environment: "sandbox",
      sandboxSecretKey: sandboxKey,
    });
  } finally {
    await db.$disconnect();
  }
}

interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  body: { type?: string; payload?: { order_id?: string } } | null;
}

/** Connects a demo shop, sends the four webhooks signed as Shopify would, and prints each event the emulator receives. */
export async function replaySampleLifecycle(options: DemoOptions): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  await waitForHealth(options.appUrl, 120_000);
  await connectDemoShop(options.env, options.sandboxKey);
  // A fresh order ID each run, so every run shows the whole lifecycle again.
  const orderId = String(Date.now());
  const seenBefore = (await emulatorRequests(options.emulatorUrl)).length;
  log(`\nSample lifecycle for ${DEMO_SHOP}, order ${orderId}:`);
  for (const [topic, file] of LIFECYCLE.files) {
    const body = readLifecycleFixture(file).replaceAll(LIFECYCLE.orderId, orderId);
    const headers = shopifyWebhookHeaders({
      topic,
      shop: DEMO_SHOP,
      body,
      secret: options.env.SHOPIFY_API_SECRET,
    });
    const answer = await fetch(new URL(`/webhooks/${topic}`, options.appUrl), {
      method: "POST",
      headers,
      body,
    });
    log(`  Shopify → app   ${topic.padEnd(20)} ${answer.status}`);
  }

  const deadline = Date.now() + 60_000;
  let printed = seenBefore;
  let delivered = 0;
  while (Date.now() < deadline && delivered < LIFECYCLE.files.length) {
    const requests = await emulatorRequests(options.emulatorUrl);
    for (const request of requests.slice(printed)) {
      if (!request.path.endsWith("/events")) continue;
      const type = request.body?.type ?? "?";
      log(`  app → svc       ${type.padEnd(24)} ${request.status} (${request.path})`);
      if (request.status === 200 && request.body?.payload?.order_id === orderId) delivered += 1;
    }
    printed = requests.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  log(
    delivered === LIFECYCLE.files.length
      ? `Delivered all ${delivered} events. Inspect them: ${options.emulatorUrl}__emulator/state?environment=sandbox\n`
      : `Only ${delivered} of ${LIFECYCLE.files.length} events arrived within a minute; see the app's log.\n`,
  );
}

async function emulatorRequests(emulatorUrl: string): Promise<LoggedRequest[]> {
  const answer = await fetch(new URL("__emulator/requests", emulatorUrl));
  return ((await answer.json()) as { requests: LoggedRequest[] }).requests;
}
