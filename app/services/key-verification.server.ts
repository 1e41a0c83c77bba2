import type { Logger } from "../logger.server";
import { keyNameOf } from "../models/ShopConnection.server";
import { describeResult } from "../protection/results";
import type { ApiVersion, Environment, PlanLookupQuery } from "../protection/types";
import { protectionClientForKey } from "./protection.server";

export type KeyVerification =
  | { outcome: "valid" }
  /** The service answered 401: the key is not a valid key of that environment. */
  | { outcome: "rejected" }
  /** Anything else (down, slow, 5xx, an unexpected answer): the key's validity is unknown. */
  | { outcome: "unverified"; reason: string };

/**
 * A plan look-up for a product no shop sells: read-only on the service, so checking a key leaves
 * nothing behind (no cart, no order). Decision 012.
 */
export const KEY_CHECK_QUERY: PlanLookupQuery = {
  product_id: "svc-key-check",
  product_title: "Key check",
  price_amount: 100,
  price_currency: "eur",
};

/**
 * Checks a secret key by a live call in its own environment. Only a 200 proves the key, and
 * only a 401 disproves it; everything else means "try again". The key is never logged.
 */
export async function verifySecretKey(
  input: { shop: string; environment: Environment; secretKey: string; apiVersion: ApiVersion },
  log: Logger,
): Promise<KeyVerification> {
  const keyName = keyNameOf(input.environment);
  const client = protectionClientForKey({
    environment: input.environment,
    secretKey: input.secretKey,
    apiVersion: input.apiVersion,
  });
  const result = await client.lookupPlans(KEY_CHECK_QUERY);
  const fields = { shop: input.shop, environment: input.environment };
  switch (result.kind) {
    case "success":
      log.info(fields, `The ${keyName} secret key of ${input.shop} passed the service's check`);
      return { outcome: "valid" };
    case "unauthorized":
      log.warn(fields, `The service rejected the ${keyName} secret key entered for ${input.shop}`);
      return { outcome: "rejected" };
    default: {
      const reason = describeResult(result);
      log.warn(fields, `Failed to verify the ${keyName} secret key of ${input.shop}: ${reason}`);
      return { outcome: "unverified", reason };
    }
  }
}
