import { gunzipSync } from "node:zlib";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { gzipStorefrontAnswers } from "./compression";

const script = `console.log(${JSON.stringify("x".repeat(4000))});`;
const apps: ReturnType<typeof Fastify>[] = [];

function store() {
  const app = Fastify();
  apps.push(app);
  gzipStorefrontAnswers(app, ["/__store"]);
  app.get("/cdn/shop/t/1/assets/global.js", async (_request, reply) =>
    reply.type("application/javascript").send(script),
  );
  app.get("/__store/webhooks", async (_request, reply) =>
    reply.type("application/json").send(JSON.stringify({ deliveries: "y".repeat(4000) })),
  );
  app.get("/tiny.js", async (_request, reply) => reply.type("application/javascript").send("1"));
  return app;
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

describe("gzipStorefrontAnswers", () => {
  it("gzips a storefront asset for a browser that accepts gzip, as Shopify's CDN does", async () => {
    const answer = await store().inject({
      url: "/cdn/shop/t/1/assets/global.js",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.headers.vary).toBe("Accept-Encoding");
    expect(answer.rawPayload.length).toBeLessThan(script.length / 10);
    expect(gunzipSync(answer.rawPayload).toString()).toBe(script);
  });

  it("answers plainly without Accept-Encoding, under the control API, and below 1 KB", async () => {
    const app = store();
    const plain = await app.inject({ url: "/cdn/shop/t/1/assets/global.js" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);
    for (const url of ["/__store/webhooks", "/tiny.js"]) {
      const answer = await app.inject({ url, headers: { "accept-encoding": "gzip" } });
      expect(answer.headers["content-encoding"]).toBeUndefined();
    }
  });
});
