import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { loader as homeLoader } from "../../app/routes/app._index/route";
import { testDatabaseProvider } from "../support/databases";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { sessionToken } from "../support/session-token";
import { TEST_API_KEY, TEST_API_SECRET } from "../support/test-env";
import { adminRequest, callRoute } from "../support/routes";
import { seedShop } from "../support/shops";

// The embedded admin: App Bridge sends a session token; the offline session comes from Prisma.
const provider = testDatabaseProvider();
const SHOP = "admin-auth.myshopify.com";
const SECRET_KEY = "sk_test_admin_auth_7Q2w";

function loadHome(token: string) {
  return callRoute(homeLoader, adminRequest(SHOP, "/app", { token }));
}

beforeEach(async () => {
  await prisma.session.deleteMany({});
  await prisma.shopConnection.deleteMany({});
  await seedShop(prisma, SHOP, {
    keys: { sandboxSecretKey: SECRET_KEY },
    accessToken: "shpat_offline_token",
  });
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
});
