import { describe, expect, it } from "vitest";
import type { ErrorBody } from "./errors";
import { LIVE_KEY, PRODUCTS, SANDBOX_KEY, withTestEmulator } from "./test-support";

const client = withTestEmulator();

const plansQuery = {
  product_id: PRODUCTS.laptop.product_id,
  product_title: PRODUCTS.laptop.product_title,
  product_brand: PRODUCTS.laptop.product_brand,
  price_amount: String(PRODUCTS.laptop.price_amount),
  price_currency: "eur",
};

const unauthorizedBody: ErrorBody = {
  error: { error_code: "unauthorized", validation_errors: [] },
};

describe("authentication", () => {
  it("answers 401 when the Authorization header is missing", async () => {
    const answer = await client.call("plans", { query: plansQuery, key: null });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
    expect(answer.headers.get("svc-emulator-reason")).toBe("missing_authorization");
  });

  it("answers 401 to an unknown key", async () => {
    const answer = await client.call("plans", { query: plansQuery, key: "sk_test_revoked_1234" });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
    expect(answer.headers.get("svc-emulator-reason")).toBe("invalid_key");
  });

  it("answers 401 to the live key on sandbox and to the sandbox key on production", async () => {
    const liveOnSandbox = await client.call("plans", {
      environment: "sandbox",
      query: plansQuery,
      key: LIVE_KEY,
    });
    const sandboxOnProduction = await client.call("plans", {
      environment: "production",
      query: plansQuery,
      key: SANDBOX_KEY,
    });
    for (const answer of [liveOnSandbox, sandboxOnProduction]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(unauthorizedBody);
      expect(answer.headers.get("svc-emulator-reason")).toBe("key_for_other_environment");
    }
  });

  it("accepts each environment's own key", async () => {
    const sandbox = await client.call("plans", {
      environment: "sandbox",
      query: plansQuery,
      key: SANDBOX_KEY,
    });
    const production = await client.call("plans", {
      environment: "production",
      query: plansQuery,
      key: LIVE_KEY,
    });
    expect(sandbox.status).toBe(200);
    expect(production.status).toBe(200);
  });

  it("rejects the sample form, a header named Bearer, because the rule is Authorization", async () => {
    const answer = await client.call("plans", {
      query: plansQuery,
      key: null,
      headers: { Bearer: SANDBOX_KEY },
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("svc-emulator-reason")).toBe("missing_authorization");
  });

  it("rejects an Authorization header without the Bearer scheme", async () => {
    const answer = await client.call("plans", {
      query: plansQuery,
      key: null,
      headers: { authorization: SANDBOX_KEY },
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("svc-emulator-reason")).toBe("malformed_authorization");
  });

  it("checks authentication before validation and before parsing the body", async () => {
    const invalidBody = await client.call("events", {
      body: { type: "order_placed", payload: {} },
      key: null,
    });
    const malformedBody = await client.call("events", {
      rawBody: '{"type": "order_pla',
      key: "sk_test_wrong",
    });
    expect(invalidBody.status).toBe(401);
    expect(malformedBody.status).toBe(401);
    expect(malformedBody.body).toEqual(unauthorizedBody);
  });
});

describe("versions", () => {
  it("uses v1.1 when the Svc-Version header is absent and says so in the answer", async () => {
    const answer = await client.call("plans", { query: plansQuery });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("svc-version")).toBe("v1.1");
  });

  it("accepts v2.0 and v1.1 with the same behaviour, echoing the version used", async () => {
    const current = await client.call("plans", { query: plansQuery, version: "v2.0" });
    const earliest = await client.call("plans", { query: plansQuery, version: "v1.1" });
    expect(current.status).toBe(200);
    expect(current.headers.get("svc-version")).toBe("v2.0");
    expect(earliest.headers.get("svc-version")).toBe("v1.1");
    expect(current.body).toEqual(earliest.body);
  });

  it.each(["v3.0", "2.0", "V2.0", ""])("answers 400 unsupported_version to %j", async (version) => {
    const answer = await client.call<ErrorBody>("plans", { query: plansQuery, version });
    expect(answer.status).toBe(400);
    expect(answer.body.error.error_code).toBe("unsupported_version");
    expect(answer.body.error.validation_errors).toEqual([
      { field: "headers.svc-version", message: expect.stringContaining("v1.1, v2.0") },
    ]);
  });

  it("checks the version after authentication", async () => {
    const answer = await client.call("plans", { query: plansQuery, version: "v9.9", key: null });
    expect(answer.status).toBe(401);
  });
});

describe("unknown routes and media types", () => {
  it.each(["production", "sandbox"] as const)(
    "answers 404 not_found to an unknown path in %s",
    async (environment) => {
      const answer = await client.call("plan_connections", { environment });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: { error_code: "not_found", validation_errors: [] } });
    },
  );

  it("answers 404 not_found to a known path with the wrong method", async () => {
    const answer = await client.call<ErrorBody>("events", { method: "GET" });
    expect(answer.status).toBe(404);
    expect(answer.body.error.error_code).toBe("not_found");
  });

  it("answers 415 unsupported_media_type to a body that is not JSON", async () => {
    const answer = await client.call<ErrorBody>("events", {
      rawBody: "type=order_placed",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(answer.status).toBe(415);
    expect(answer.body.error.error_code).toBe("unsupported_media_type");
  });
});
