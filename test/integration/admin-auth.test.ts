import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { loader as homeLoader } from "../../app/routes/app._index/route";
import { testDatabaseProvider } from "../support/databases";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { sessionToken } from "../support/session-token";
import { TEST_API_KEY, TEST_API_SECRET } from "../support/test-env";
import { installInStore, localStore, resetLocalStore } from "../support/local-store";
import { APP_SCOPES } from "../support/offline-session";
import { adminRequest, APP_ORIGIN, callRoute } from "../support/routes";
import { readOfflineSessionRow } from "../support/session-tokens";
import { connectShop } from "../support/shops";

// The embedded admin: App Bridge sends a session token; the offline session comes from Prisma,
// or, on the first load after an install, from the token exchange with Shopify (the local store).
const provider = testDatabaseProvider();
const SHOP = "admin-auth.myshopify.com";
const SECRET_KEY = "sk_test_admin_auth_7Q2w";

function loadHome(token: string, shop = SHOP) {
  return callRoute(homeLoader, adminRequest(shop, "/app", { token }));
}

beforeEach(async () => {
  await resetLocalStore();
  await prisma.session.deleteMany({});
  await prisma.shopConnection.deleteMany({});
  await connectShop(prisma, SHOP, { sandboxSecretKey: SECRET_KEY });
  await installInStore(prisma, SHOP);
});

describe(`embedded admin authentication (${provider})`, () => {
  it("serves the shop's connection to a valid session token, using the stored offline session", async () => {
    const result = await loadHome(sessionToken(SHOP));
    expect(result).not.toBeInstanceOf(Response);
    const data = result as Awaited<ReturnType<typeof homeLoader>>;
    expect(data.shop).toBe(SHOP);
    expect(data.connection).toMatchObject({ status: "connected", sandboxSecretKeyLast4: "7Q2w" });
    expect(JSON.stringify(data)).not.toContain(SECRET_KEY.slice(0, -4));
  });

  it("accepts the session token of Shopify's own test helpers, as it accepts ours", async () => {
    const { token } = await getJwt(
      SHOP.replace(/\.myshopify\.com$/, ""),
      TEST_API_KEY,
      TEST_API_SECRET,
    );
    const result = await loadHome(token);
    expect(result).not.toBeInstanceOf(Response);
    expect((result as Awaited<ReturnType<typeof homeLoader>>).shop).toBe(SHOP);
  });

  it("refuses a session token signed with another secret", async () => {
    const result = await loadHome(sessionToken(SHOP, { secret: "forged" }));
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).status).toBe(401);
  });

  it("refuses an expired session token", async () => {
    const result = await loadHome(sessionToken(SHOP, { expiresIn: -120 }));
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).status).toBe(401);
  });
  it("installs on the first load: the session token is exchanged at Shopify for an expiring offline token", async () => {
    // The merchant approved the install (Shopify's managed install); the app has no session yet.
    await prisma.session.deleteMany({});
    const before = localStore().state.shop(SHOP)?.installation;
    expect(before?.offlineAccessToken).toMatch(/^shpat_/);

    const result = await loadHome(sessionToken(SHOP));

    expect(result).not.toBeInstanceOf(Response);
    expect((result as Awaited<ReturnType<typeof homeLoader>>).shop).toBe(SHOP);
    const session = await readOfflineSessionRow(prisma, SHOP);
    // The app asks for an expiring pair (decision 023), which replaces the store's token.
    const installation = localStore().state.shop(SHOP)?.installation;
    expect(installation?.offlineAccessTokenExpiresAt).not.toBeNull();
    expect(session).toMatchObject({
      shop: SHOP,
      isOnline: false,
      accessToken: installation?.offlineAccessToken,
      refreshToken: expect.stringMatching(/^shprt_/),
      expires: expect.any(Date),
      scope: APP_SCOPES,
    });
    // The install is recorded (afterAuth) with the scopes Shopify granted.
    const connection = await prisma.shopConnection.findUnique({ where: { shop: SHOP } });
    expect(connection).toMatchObject({ status: "connected", grantedScopes: APP_SCOPES });
  });

  it("asks for a new session token when the shop has not installed the app", async () => {
    const stranger = "admin-auth-stranger.myshopify.com";
    localStore().state.createShop({
      domain: stranger,
      appUrl: APP_ORIGIN,
      apiKey: TEST_API_KEY,
      apiSecret: TEST_API_SECRET,
    });

    const result = await loadHome(sessionToken(stranger), stranger);

    // Shopify refused the exchange (invalid_subject_token): App Bridge is told to retry.
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).status).toBe(401);
    expect((result as Response).headers.get("X-Shopify-Retry-Invalid-Session-Request")).toBe("1");
    expect(await prisma.session.count({ where: { shop: stranger } })).toBe(0);
  });
});
