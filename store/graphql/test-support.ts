import { StoreState } from "../state";
import type { StoreShop } from "../model";
import { type AdminGraphqlOutcome, createAdminGraphql } from "./index";

/** A store with one shop and its Admin GraphQL engine, on a clock the test moves. */
export function adminGraphqlFixture(
  options: {
    currency?: string;
    plan?: StoreShop["plan"];
    appScopes?: { required: string[]; optional: string[] };
  } = {},
) {
  let clock = Date.parse("2026-11-24T10:00:00.000Z");
  const now = () => clock;
  const webhooks: string[] = [];
  const state = new StoreState({
    now: () => new Date(clock),
    onWebhook: (_shop, topic) => webhooks.push(topic),
  });
  const shop = state.createShop({
    domain: "demo.myshopify.com",
    appUrl: "https://app.example.com",
    apiKey: "test-api-key",
    apiSecret: "test-api-secret",
    currency: options.currency,
    plan: options.plan,
  });
  state.install(shop.domain, ["read_products", "write_products", "read_orders", "write_orders"]);
  const engine = createAdminGraphql(state, {
    now,
    ...(options.appScopes ? { appScopes: options.appScopes } : {}),
  });

  async function request(
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<AdminGraphqlOutcome> {
    return engine.execute({
      shop: state.shop(shop.domain) ?? shop,
      apiVersion: "2026-10",
      body: JSON.stringify({ query, variables }),
    });
  }

  /** The answer's body, for a request expected to run (HTTP 200). */
  async function run(query: string, variables: Record<string, unknown> = {}) {
    const outcome = await request(query, variables);
    if (outcome.status !== 200)
      throw new Error(`HTTP ${outcome.status}: ${JSON.stringify(outcome.body)}`);
    return outcome.body as {
      data?: Record<string, unknown> | null;
      errors?: {
        message: string;
        path?: unknown[];
        locations?: unknown[];
        extensions?: Record<string, unknown>;
      }[];
      extensions?: {
        cost: {
          requestedQueryCost: number;
          actualQueryCost: number | null;
          throttleStatus: Record<string, number>;
        };
      };
    };
  }

  return {
    state,
    shop,
    engine,
    /** The topics the store fired, in order. */
    webhooks,
    request,
    run,
    advance(ms: number) {
      clock += ms;
    },
    /** The store's clock, in milliseconds. */
    now,
  };
}
