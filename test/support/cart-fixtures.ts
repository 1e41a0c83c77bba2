import { readFileSync } from "node:fs";
import path from "node:path";
import { parseWebhookJson } from "../../app/lib/json";
import { repoRoot, shopifyFixturesDir } from "./test-env";

// The /cart.js samples: Shopify's real ones (test/fixtures/shopify/cart_js, never edited) and our
// copies with plan lines (test/fixtures/cart).

export const SHARED_CARTS = {
  populated: "cart-populated_shopify-theme-scripts.json",
  nzdWithProperties: "real-nzd-properties_cousinsd-theme-first.json",
} as const;

export const OWN_CARTS = {
  cadWithPlan: "cart-cad-with-plan.json",
  nzdPlansOutOfSync: "cart-nzd-plans-out-of-sync.json",
  jpyWithPlan: "cart-jpy-with-plan.json",
  kwdWithPlan: "cart-kwd-with-plan.json",
  nzdModernToken: "cart-nzd-modern-token.json",
} as const;

export type CartJs = { token: string; currency: string; items: CartJsItem[] } & Record<
  string,
  unknown
>;
export type CartJsItem = {
  key: string;
  quantity: number;
  variant_id: number | string;
  properties?: Record<string, unknown> | null;
} & Record<string, unknown>;

export function readSharedCart(file: string): CartJs {
  return parseWebhookJson(
    readFileSync(path.join(shopifyFixturesDir, "cart_js", file), "utf8"),
  ) as CartJs;
}

export function readOwnCart(file: string): CartJs {
  return parseWebhookJson(
    readFileSync(path.join(repoRoot, "test/fixtures/cart", file), "utf8"),
  ) as CartJs;
}
