import { afterAll, beforeAll, beforeEach } from "vitest";
import type { Catalogue } from "./catalogue";
import type { CartUpdateRequest, LineItem, OrderPlacedPayload } from "./schemas";
import { startEmulator, type RunningEmulator } from "./server";
import type { EnvironmentSnapshot, RecordedRequest } from "./state";

/* Shared helpers for the emulator's own conformance tests: real HTTP against a started emulator. */

export const SANDBOX_KEY = "sk_test_conformance_4f1c";
export const LIVE_KEY = "sk_live_conformance_9b2e";

export type Environment = "production" | "sandbox";

export interface ApiCall {
  environment?: Environment;
  method?: "GET" | "POST";
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is with a JSON content type, for malformed bodies. */
  rawBody?: string;
  /** The key to send; null sends no Authorization header. Defaults to the environment's key. */
  key?: string | null;
  version?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface ApiAnswer<Body> {
  status: number;
  headers: Headers;
  body: Body;
}

/** A scripted answer (a fault's raw_body) may claim JSON and be empty or not JSON at all. */
function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export class EmulatorClient {
  #emulator: RunningEmulator | undefined;

  constructor(emulator?: RunningEmulator) {
    this.#emulator = emulator;
  }

  get emulator(): RunningEmulator {
    if (!this.#emulator) throw new Error("The test emulator has not started yet");
    return this.#emulator;
  }

  attach(emulator: RunningEmulator) {
    this.#emulator = emulator;
  }

  environmentUrl(environment: Environment): string {
    return environment === "sandbox" ? `${this.emulator.url}sandbox/` : this.emulator.url;
  }

  async call<Body = unknown>(path: string, call: ApiCall = {}): Promise<ApiAnswer<Body>> {
    const environment = call.environment ?? "sandbox";
    const url = new URL(path, this.environmentUrl(environment));
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { ...call.headers };
    const key =
      call.key === undefined ? (environment === "sandbox" ? SANDBOX_KEY : LIVE_KEY) : call.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (call.version !== undefined) headers["svc-version"] = call.version;
    let requestBody: string | undefined;
    if (call.rawBody !== undefined) requestBody = call.rawBody;
    else if (call.body !== undefined) requestBody = JSON.stringify(call.body);
    if (requestBody !== undefined) headers["content-type"] ??= "application/json";
    const method = call.method ?? (requestBody === undefined ? "GET" : "POST");
    const response = await fetch(url, { method, headers, body: requestBody });
    const text = await response.text();
    const isJson = response.headers.get("content-type")?.includes("application/json") ?? false;
    return {
      status: response.status,
      headers: response.headers,
      body: (isJson ? parseJsonOrText(text) : text) as Body,
    };
  }

  async control<Body = unknown>(
    path: string,
    init: { method?: "GET" | "POST"; body?: unknown } = {},
  ): Promise<ApiAnswer<Body>> {
    const response = await fetch(new URL(`__emulator/${path}`, this.emulator.url), {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: init.body === undefined ? {} : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text === "" ? null : JSON.parse(text)) as Body,
    };
  }

  async reset(): Promise<void> {
    const answer = await this.control("reset", { method: "POST" });
    if (answer.status !== 204) throw new Error(`Failed to reset the emulator: ${answer.status}`);
  }

  async state(environment: Environment): Promise<EnvironmentSnapshot> {
    return (await this.control<EnvironmentSnapshot>(`state?environment=${environment}`)).body;
  }

  async requests(): Promise<RecordedRequest[]> {
    return (await this.control<{ requests: RecordedRequest[] }>("requests")).body.requests;
  }

  async placeOrder(
    payload: OrderPlacedPayload,
    environment: Environment = "sandbox",
  ): Promise<string> {
    const answer = await this.call<{ event_id: string }>("events", {
      environment,
      body: { type: "order_placed", payload },
    });
    if (answer.status !== 200)
      throw new Error(`Failed to place order ${payload.order_id}: ${answer.status}`);
    return answer.body.event_id;
  }
}

export async function startTestEmulator(catalogue?: Catalogue): Promise<EmulatorClient> {
  const emulator = await startEmulator({
    port: 0,
    sandboxKey: SANDBOX_KEY,
    liveKey: LIVE_KEY,
    catalogue,
  });
  return new EmulatorClient(emulator);
}

/** One emulator for a test file: started before its tests, reset before each, closed after. */
export function withTestEmulator(): EmulatorClient {
  const client = new EmulatorClient();
  beforeAll(async () => {
    client.attach((await startTestEmulator()).emulator);
  });
  beforeEach(async () => {
    await client.reset();
  });
  afterAll(async () => {
    await client.emulator.close();
  });
  return client;
}

// ---------------------------------------------------------------------------------------------
// Realistic data: Shopify-style numeric ids, prices in cents of eur.

export const PRODUCTS = {
  laptop: {
    product_id: "8457293627449",
    product_title: 'MacBook Air 13" Laptop M3',
    product_brand: "Apple",
    price_amount: 129900,
  },
  headphones: {
    product_id: "8457293693001",
    product_title: "WH-1000XM5 Wireless Headphones",
    product_brand: "Sony",
    price_amount: 37900,
  },
  cable: {
    product_id: "8457293660217",
    product_title: "USB-C Charging Cable 2 m",
    product_brand: "Anker",
    price_amount: 1999,
  },
  sofa: {
    product_id: "8457294020681",
    product_title: "Söderhamn 3-seat Sofa",
    product_brand: "IKEA",
    price_amount: 89900,
  },
} as const;

/** Protection items of the default catalogue. */
export const PLAN_ITEMS = {
  electronicsTwoYearHighBand: {
    product_id: "8104420102005",
    product_title: "2-year protection",
    price_amount: 12999,
  },
  electronicsTwoYearMidBand: {
    product_id: "8104420102003",
    product_title: "2-year protection",
    price_amount: 5999,
  },
} as const;

export const USER_SESSION_ID = "3f9a6c1e-8b2d-4e7a-9c5f-1d2e3b4a5c6d";

export function lineItem(
  id: string,
  product: {
    product_id: string;
    product_title: string;
    price_amount: number;
    product_brand?: string;
  },
  quantity = 1,
  productReference?: string,
): LineItem {
  return {
    id,
    quantity,
    price_amount: product.price_amount,
    product_id: product.product_id,
    product_title: product.product_title,
    ...(product.product_brand === undefined ? {} : { product_brand: product.product_brand }),
    ...(productReference === undefined
      ? {}
      : { custom_properties: { product_reference: productReference } }),
  };
}

export function orderPlacedPayload(
  overrides: Partial<OrderPlacedPayload> = {},
): OrderPlacedPayload {
  return {
    order_id: "5558016491833",
    placed_at: "2025-03-14T09:26:53.589Z",
    order_currency: "eur",
    cart_id: "Z2NwLXVzLWVhc3QxOjAxSkJYWjJQ",
    customer: { first_name: "Lena", last_name: "Hoffmann", email: "lena.hoffmann@example.com" },
    customer_billing_address: {
      address_line_1: "Torstraße 109",
      address_line_2: "3. OG",
      city: "Berlin",
      country: "de",
      zip: "10119",
    },
    line_items: [
      lineItem("13612765970489", PRODUCTS.laptop),
      lineItem("13612765970490", PRODUCTS.cable, 2),
      lineItem("13612765970491", PRODUCTS.headphones),
    ],
    ...overrides,
  };
}

export function cartUpdate(
  lineItems: LineItem[],
  cartId = "Z2NwLWV1cm9wZS13ZXN0MTowMUpDNEs",
): CartUpdateRequest {
  return {
    cart_id: cartId,
    user_session_id: USER_SESSION_ID,
    cart_currency: "eur",
    line_items: lineItems,
  };
}
