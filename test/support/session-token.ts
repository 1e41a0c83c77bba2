import { createHmac, randomUUID } from "node:crypto";
import { TEST_API_KEY, TEST_API_SECRET } from "./test-env";

/*
 * Shopify's session tokens, HS256 JWTs signed with the app's secret, in each shape the app gets:
 * App Bridge's in the embedded admin (and an admin UI extension's fetch), and the checkout and
 * customer account UI extensions' (`shopify.sessionToken.get()`), whose `dest` is the bare shop
 * domain and whose `sub` is the signed-in customer, when there is one.
 */

export interface SessionTokenOptions {
  secret?: string;
  /** Seconds from now until `exp`; negative for a token that has expired. */
  expiresIn?: number;
  /** The app the token is for (`aud`). */
  audience?: string;
}

function signSessionToken(claims: Record<string, unknown>, options: SessionTokenOptions): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const header = encode({ alg: "HS256", typ: "JWT" });
  const payload = encode({
    aud: options.audience ?? TEST_API_KEY,
    exp: now + (options.expiresIn ?? 60),
    nbf: now - 5,
    iat: now - 5,
    jti: randomUUID(),
    ...claims,
  });
  const signature = createHmac("sha256", options.secret ?? TEST_API_SECRET)
    .update(`${header}.${payload}`)
    .digest("base64url");
  return `${header}.${payload}.${signature}`;
}

/** An App Bridge session token (HS256 JWT signed with the app's secret), as the admin sends it. */
export function sessionToken(shop: string, options: SessionTokenOptions = {}) {
  return signSessionToken(
    { iss: `https://${shop}/admin`, dest: `https://${shop}`, sub: "42", sid: randomUUID() },
    options,
  );
}

/** A checkout UI extension's token (the Thank-you page): `sub` only for a signed-in buyer. */
export function checkoutSessionToken(
  shop: string,
  options: SessionTokenOptions & { customerId?: string } = {},
) {
  const { customerId, ...signing } = options;
  return signSessionToken(
    { dest: shop, ...(customerId ? { sub: `gid://shopify/Customer/${customerId}` } : {}) },
    signing,
  );
}

/** A customer account UI extension's token (the Order status page), for a signed-in customer. */
export function customerAccountSessionToken(
  shop: string,
  options: SessionTokenOptions & { customerId?: string | null } = {},
) {
  const { customerId = "7", ...signing } = options;
  return signSessionToken(
    { dest: shop, ...(customerId === null ? {} : { sub: `gid://shopify/Customer/${customerId}` }) },
    signing,
  );
}
