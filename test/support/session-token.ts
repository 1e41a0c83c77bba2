import { createHmac, randomUUID } from "node:crypto";
import { TEST_API_KEY, TEST_API_SECRET } from "./test-env";

/** An App Bridge session token (HS256 JWT signed with the app's secret), as the admin sends it. */
export function sessionToken(shop: string, options: { secret?: string; expiresIn?: number } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const header = encode({ alg: "HS256", typ: "JWT" });
  const payload = encode({
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: TEST_API_KEY,
    sub: "42",
    exp: now + (options.expiresIn ?? 60),
    nbf: now - 5,
    iat: now - 5,
    jti: randomUUID(),
    sid: randomUUID(),
  });
  const signature = createHmac("sha256", options.secret ?? TEST_API_SECRET)
    .update(`${header}.${payload}`)
    .digest("base64url");
  return `${header}.${payload}.${signature}`;
}
