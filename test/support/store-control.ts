import { parseWebhookJson } from "../../app/lib/json";
import { TEST_API_KEY, TEST_API_SECRET } from "./test-env";

/*
 * The local store's control API (`/__store/...`) for tests that run the store on its own
 * (test/support/local-store.ts runs one per file in the test's process, with its own client).
 */

/** A control call that must succeed: a JSON body makes it a POST. IDs past 2^53 stay exact. */
export async function controlStore<Body = Record<string, unknown>>(
  storeUrl: string,
  pathName: string,
  body?: unknown,
): Promise<Body> {
  const answer = await fetch(`${storeUrl}/__store/${pathName}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`The store answered ${answer.status} to ${pathName}: ${text}`);
  return parseWebhookJson(text) as Body;
}

/** A shop selling in euros whose app (the test's API key) runs at `appUrl`; not yet installed. */
export async function addShopToStore(storeUrl: string, shop: string, appUrl: string) {
  await controlStore(storeUrl, "shops", {
    shop,
    app_url: appUrl,
    api_key: TEST_API_KEY,
    api_secret: TEST_API_SECRET,
    currency: "EUR",
  });
}
