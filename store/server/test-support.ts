import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startStore, type RunningStore, type StoreOptions } from "./server";

/* Shared helpers for the store server's tests: real HTTP against a started store and fake apps. */

export const API_KEY = "3f1c9a7be20d4c55a8e61b0f9d2c7a41";
export const API_SECRET = "shpss_local_store_test_secret_7d2e";
export const SHOP = "protect-demo.myshopify.com";
export const SCOPES = ["read_orders", "write_orders", "read_products", "write_products"];
/** Fetches from "the merchant's browser": Shopify's libraries refuse bot user agents. */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

export interface Answer<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
  text: string;
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export class StoreClient {
  #store: RunningStore | undefined;
  /** Shifts the store's clock, for expiries. */
  clockOffsetMs = 0;

  get store(): RunningStore {
    if (!this.#store) throw new Error("The test store has not started yet");
    return this.#store;
  }

  attach(store: RunningStore): void {
    this.#store = store;
  }

  now = (): Date => new Date(Date.now() + this.clockOffsetMs);

  async request<Body = unknown>(
    path: string,
    init: {
      method?: string;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Answer<Body>> {
    const headers: Record<string, string> = { ...init.headers };
    let body: string | undefined;
    if (init.rawBody !== undefined) body = init.rawBody;
    else if (init.body !== undefined) body = JSON.stringify(init.body);
    if (body !== undefined) headers["content-type"] ??= "application/json";
    const response = await fetch(`${this.store.url}${path}`, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      redirect: "manual",
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: parseJsonOrText(text) as Body,
      text,
    };
  }

  control<Body = unknown>(path: string, body?: unknown, method?: string): Promise<Answer<Body>> {
    return this.request<Body>(`/__store/${path}`, {
      ...(body === undefined ? {} : { body }),
      method: method ?? (body === undefined ? "GET" : "POST"),
    });
  }

  async createShop(
    appUrl: string,
    overrides: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const answer = await this.control<Record<string, unknown>>("shops", {
      shop: SHOP,
      app_url: appUrl,
      api_key: API_KEY,
      api_secret: API_SECRET,
      ...overrides,
    });
    if (answer.status !== 201) throw new Error(`Failed to create the shop: ${answer.text}`);
    return answer.body;
  }

  async reset(): Promise<void> {
    const answer = await this.control("reset", {});
    if (answer.status !== 204) throw new Error(`Failed to reset the store: ${answer.status}`);
    this.clockOffsetMs = 0;
  }
}

/** One store for a test file: started before its tests, reset before each, closed after. */
export function withTestStore(options: StoreOptions = {}): StoreClient {
  const client = new StoreClient();
  beforeAll(async () => {
    client.attach(await startStore({ port: 0, now: client.now, ...options }));
  });
  beforeEach(async () => {
    await client.reset();
  });
  afterAll(async () => {
    await client.store.close();
  });
  return client;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface FakeApp {
  url: string;
  received: ReceivedRequest[];
  /** Replaces how the app answers; `raw` is the node request, its body already read. */
  handle: (
    request: ReceivedRequest,
    response: ServerResponse,
    raw: IncomingMessage,
  ) => void | Promise<void>;
  close(): Promise<void>;
}

/** A small HTTP server standing in for the app: records every request, answers 200 by default. */
export async function startFakeApp(
  handle: FakeApp["handle"] = (_request, response) => {
    response.writeHead(200).end();
  },
): Promise<FakeApp> {
  const app: FakeApp = {
    url: "",
    received: [],
    handle,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received: ReceivedRequest = {
        method: request.method ?? "GET",
        url: request.url ?? "/",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      app.received.push(received);
      Promise.resolve(app.handle(received, response, request)).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500);
        response.end(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      });
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  app.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return app;
}
