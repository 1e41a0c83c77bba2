import { describe, expect, it } from "vitest";
import { buildStore } from "../server/server";
import { verifySessionToken } from "../server/session-token";
import { APP_BRIDGE_PATH } from "./admin";

// The local store's embedded admin, through Fastify's inject: the page around the app, the
// session tokens it hands the frame, and what it says when the app cannot be opened.

const SHOP = "admin-shell.myshopify.com";
const APP = { apiKey: "shell-api-key", apiSecret: "shell-api-secret-0123456789" };

function store(install: boolean) {
  const built = buildStore();
  built.state.createShop({
    domain: SHOP,
    appUrl: "http://localhost:3999/",
    apiKey: APP.apiKey,
    apiSecret: APP.apiSecret,
    currency: "EUR",
  });
  if (install) built.state.install(SHOP, ["read_products"]);
  return built.app;
}

function frameSrc(html: string): URL {
  const src = /<iframe[^>]* src="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error("The page has no app frame");
  return new URL(src.replaceAll("&amp;", "&"));
}

describe("the embedded admin of the local store", () => {
  it("frames the installed app's page with a session token signed by the app's secret", async () => {
    const app = store(true);
    const answer = await app.inject({ url: "/admin/apps/svc-protection/app/events?status=dead" });
    expect(answer.statusCode).toBe(200);
    const src = frameSrc(answer.body);
    expect(`${src.origin}${src.pathname}`).toBe("http://localhost:3999/app/events");
    expect(src.searchParams.get("status")).toBe("dead");
    expect(src.searchParams.get("embedded")).toBe("1");
    expect(src.searchParams.get("shop")).toBe(SHOP);
    expect(Buffer.from(src.searchParams.get("host")!, "base64").toString()).toBe(
      "admin.shopify.com/store/admin-shell",
    );
    expect(src.searchParams.get("locale")).toBe("en");
    const check = verifySessionToken(src.searchParams.get("id_token")!, {
      ...APP,
      shop: SHOP,
      now: new Date(),
    });
    expect(check.status).toBe("valid");
    expect(answer.body).not.toContain(APP.apiSecret);
    await app.close();
  });

  it("mints fresh session tokens for the admin page, and for no other origin", async () => {
    const app = store(true);
    const answer = await app.inject({
      method: "POST",
      url: "/admin/apps/svc-protection/session-token",
    });
    expect(answer.statusCode).toBe(200);
    const { token } = answer.json<{ token: string }>();
    expect(verifySessionToken(token, { ...APP, shop: SHOP, now: new Date() }).status).toBe("valid");
    const foreign = await app.inject({
      method: "POST",
      url: "/admin/apps/svc-protection/session-token",
      headers: { origin: "http://evil.example" },
    });
    expect(foreign.statusCode).toBe(403);
    await app.close();
  });

  it("lists the shop's variants for the resource picker, as Shopify's picker answers", async () => {
    const app = store(true);
    const answer = await app.inject({
      method: "POST",
      url: "/admin/apps/svc-protection/resource-picker",
      payload: { type: "variant" },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ type: "variant", items: [] });
    await app.close();
  });

  it("says how to install the app when the shop has not, and names the app it has", async () => {
    const app = store(false);
    const notInstalled = await app.inject({ url: "/admin/apps/svc-protection" });
    expect(notInstalled.statusCode).toBe(409);
    expect(notInstalled.body).toContain(`POST /__store/shops/${SHOP}/install`);
    expect(notInstalled.body).not.toContain("<iframe");
    const tokens = await app.inject({
      method: "POST",
      url: "/admin/apps/svc-protection/session-token",
    });
    expect(tokens.statusCode).toBe(404);
    const other = await app.inject({ url: "/admin/apps/another-app" });
    expect(other.statusCode).toBe(404);
    expect(other.body).toContain("/admin/apps/svc-protection");
    await app.close();
  });

  it("serves the App Bridge stand-in where the app looks for it", async () => {
    const app = store(false);
    const answer = await app.inject({ url: APP_BRIDGE_PATH });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toContain("text/javascript");
    expect(answer.body).toContain("window.shopify = {");
    await app.close();
  });
});
