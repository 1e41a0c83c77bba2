import { describe, expect, it } from "vitest";
import {
  DEFAULT_ENDPOINT_PATHS,
  parseApiVersion,
  parseCartCheckoutPath,
  parseEndpointPaths,
  parseEnvironment,
  parseEventsPath,
  serviceBaseUrl,
} from "./config";

describe("serviceBaseUrl", () => {
  it.each([
    ["http://h:4010", "production", "http://h:4010/"],
    ["http://h:4010/", "production", "http://h:4010/"],
    ["http://h:4010", "sandbox", "http://h:4010/sandbox/"],
    ["http://h:4010/", "sandbox", "http://h:4010/sandbox/"],
    ["https://api.example.com/v2/", "production", "https://api.example.com/v2/"],
    ["https://api.example.com/v2/", "sandbox", "https://api.example.com/v2/sandbox/"],
    ["https://api.example.com/v2", "sandbox", "https://api.example.com/v2/sandbox/"],
    ["  https://api.example.com  ", "production", "https://api.example.com/"],
  ] as const)("%s in %s is %s", (baseUrl, environment, expected) => {
    expect(serviceBaseUrl(baseUrl, environment)).toBe(expected);
  });

  it("resolves endpoint paths below the sandbox address, not the host root", () => {
    const sandbox = serviceBaseUrl("https://api.example.com/v2", "sandbox");
    expect(new URL("events", sandbox).href).toBe("https://api.example.com/v2/sandbox/events");
  });

  it.each([
    ["not a url", /not an absolute URL/],
    ["ftp://h/", /expected http or https/],
    ["http://h/?a=1", /must not carry a query or fragment/],
    ["http://h/#x", /must not carry a query or fragment/],
  ])("rejects %s with a clear message", (baseUrl, message) => {
    expect(() => serviceBaseUrl(baseUrl, "production")).toThrow(message);
  });
});

describe("endpoint paths", () => {
  it("defaults to the spec's rules table", () => {
    expect(DEFAULT_ENDPOINT_PATHS).toEqual({ events: "events", cartCheckout: "cart_checkout" });
    expect(parseEndpointPaths({})).toEqual({ events: "events", cartCheckout: "cart_checkout" });
    expect(parseEventsPath(undefined)).toBe("events");
    expect(parseEventsPath("  ")).toBe("events");
    expect(parseCartCheckoutPath("")).toBe("cart_checkout");
  });

  it.each([
    ["/orders", "orders"],
    ["orders", "orders"],
    ["/orders/", "orders"],
    ["/events", "events"],
  ] as const)("reads SVC_EVENTS_PATH=%s as %s", (value, expected) => {
    expect(parseEventsPath(value)).toBe(expected);
  });

  it.each([
    ["/orders", "orders"],
    ["/cart_checkout", "cart_checkout"],
    [" cart_checkout ", "cart_checkout"],
  ] as const)("reads SVC_CHECKOUT_PATH=%s as %s", (value, expected) => {
    expect(parseCartCheckoutPath(value)).toBe(expected);
  });

  it("combines both settings", () => {
    expect(parseEndpointPaths({ eventsPath: "/orders", cartCheckoutPath: "/orders" })).toEqual({
      events: "orders",
      cartCheckout: "orders",
    });
  });

  it("names the setting and the allowed values when a value is wrong", () => {
    expect(() => parseEventsPath("/cart_checkout")).toThrow(
      'Invalid SVC_EVENTS_PATH "/cart_checkout": expected "/events" or "/orders"',
    );
    expect(() => parseCartCheckoutPath("/events")).toThrow(
      'Invalid SVC_CHECKOUT_PATH "/events": expected "/cart_checkout" or "/orders"',
    );
    expect(() => parseEventsPath("/Orders")).toThrow(/SVC_EVENTS_PATH/);
    expect(() => parseEndpointPaths({ cartCheckoutPath: "/checkout" })).toThrow(
      /SVC_CHECKOUT_PATH "\/checkout"/,
    );
  });
});

describe("environment and version settings", () => {
  it("accepts the two environments and refuses anything else, including unset", () => {
    expect(parseEnvironment("sandbox")).toBe("sandbox");
    expect(parseEnvironment(" production ")).toBe("production");
    expect(() => parseEnvironment("live")).toThrow(
      'Invalid SVC_ENVIRONMENT "live": expected "sandbox" or "production"',
    );
    expect(() => parseEnvironment(undefined)).toThrow(/SVC_ENVIRONMENT/);
  });

  it("accepts the two API versions and defaults to the current one", () => {
    expect(parseApiVersion("v1.1")).toBe("v1.1");
    expect(parseApiVersion("v2.0")).toBe("v2.0");
    expect(parseApiVersion(undefined)).toBe("v2.0");
    expect(() => parseApiVersion("2.0")).toThrow('Invalid SVC_API_VERSION "2.0"');
  });
});
