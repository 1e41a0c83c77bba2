import type { AddressInfo } from "node:net";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { BulkOperations } from "../graphql/bulk-operations";
import { createAdminGraphql } from "../graphql/index";
import { StoreUserError } from "../model";
import { StoreState } from "../state";
import { StoreCarts } from "../storefront/cart";
import { registerStorefrontCommerce } from "../storefront/commerce";
import { gzipStorefrontAnswers } from "../storefront/compression";
import { storefrontShopOf, type StorefrontRequest } from "../storefront/contract";
import { registerThemeRoutes, renderSections } from "../storefront/theme/routes";
import { registerEmbeddedAdmin } from "../storefront/admin";
import {
  registerAdminApiRoutes,
  type AdminGraphql,
  type GraphqlLogEntry,
} from "./admin-api-routes";
import { loadAppConfig, type AppConfig } from "./app-config";
import { registerControlRoutes } from "./control-routes";
import { AccessGrants, registerOAuthRoutes } from "./oauth";
import { WebhookDelivery } from "./webhook-delivery";

/*
 * The local Shopify store: one process playing a shop's back office. Shopify's `https://{shop}/X`
 * is served at `{origin}/shops/{shop}/X` (the app's fetch is rewritten to it, decision 021); the
 * control API lives under /__store.
 */

export interface StoreOptions {
  /** shopify.app.toml: scopes and webhook subscriptions. Defaults to the repository's. */
  appConfigPath?: string;
  appConfig?: AppConfig;
  /** Delays before each webhook retry (at most 8); Shopify's ~4 h schedule by default. */
  retryDelaysMs?: readonly number[];
  /** How long the app has to answer a webhook (5 s, as Shopify). */
  deliveryTimeoutMs?: number;
  /** How long `POST /__store/shops/:shop/install` waits for the app's page. */
  installTimeoutMs?: number;
  now?: () => Date;
  /** Fastify's own request logger; off unless asked for. */
  logger?: boolean;
  /** The shop whose storefront the origin's root serves; the first shop created by default. */
  storefrontShop?: string;
  /**
   * The theme editor's switches for the app's block and embed in Dawn (both on by default), and
   * Dawn's cart type. Read on every request: a change shows as after the merchant's save.
   */
  storefrontApp?: StorefrontRequest["app"];
}

export interface RunningStore {
  /** The store's origin, without a trailing slash: the app's SHOPIFY_ADMIN_ORIGIN. */
  url: string;
  state: StoreState;
  /** Every shop's bulk operations (`settled(id)` waits for a run's end). */
  bulk: BulkOperations;
  close(): Promise<void>;
}

export const CONTROL_PREFIX = "/__store";
export const SHOP_PREFIX = "/shops/:shop";

function pathOf(request: FastifyRequest): string {
  return request.url.split("?", 1)[0] ?? request.url;
}

function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof StoreUserError)
    return reply.code(422).send({
      error: "user_error",
      message: error.message,
      field: error.field,
      code: error.code,
    });
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return reply
        .code(415)
        .send({ error: "unsupported_media_type", message: "Send JSON (application/json)" });
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return reply.code(413).send({ error: "payload_too_large", message: "The body is too large" });
  }
  console.error(`Local store failed to answer ${request.method} ${pathOf(request)}:`, error);
  return reply
    .code(500)
    .send({ error: "internal_error", message: `${error.name}: ${error.message}` });
}

export function buildStore(options: StoreOptions = {}): {
  app: FastifyInstance;
  state: StoreState;
  delivery: WebhookDelivery;
  bulk: BulkOperations;
  /** The storefront's carts, by the buyer's `cart` cookie (the theme's pages read them too). */
  carts: StoreCarts;
} {
  // A stand-in for Shopify that mints session tokens and frames the app: never a production host.
  if (process.env.NODE_ENV === "production") {
    throw new Error("The local Shopify store is for development and tests; NODE_ENV is production");
  }
  const now = options.now ?? (() => new Date());
  const appConfig = options.appConfig ?? loadAppConfig(options.appConfigPath);
  const delivery = new WebhookDelivery({
    subscriptions: appConfig.subscriptions,
    apiVersion: appConfig.webhookApiVersion,
    ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
    ...(options.deliveryTimeoutMs === undefined ? {} : { timeoutMs: options.deliveryTimeoutMs }),
    now,
  });
  const state = new StoreState({ onWebhook: delivery.sink, now });
  const grants = new AccessGrants(state, now);
  const carts = new StoreCarts(state);
  const bulk = new BulkOperations({ now: () => now().getTime(), onWebhook: delivery.sink });
  const createEngine = () =>
    createAdminGraphql(state, {
      now: () => now().getTime(),
      appScopes: { required: appConfig.scopes, optional: appConfig.optionalScopes },
      bulk,
    });
  let graphql: AdminGraphql = createEngine();
  const graphqlLog: GraphqlLogEntry[] = [];

  const app = Fastify({
    logger: options.logger ?? false,
    forceCloseConnections: true,
    // Orders with many lines and big GraphQL documents are fine; a runaway body is not.
    bodyLimit: 16 * 2 ** 20,
  });

  // Bodies are kept as text: the GraphQL engine reads the exact text, and a control route
  // answers malformed JSON with a 400 naming the body rather than fastify's generic error.
  const rawBodies = new WeakMap<FastifyRequest, string>();
  const unparsedBodies = new WeakSet<FastifyRequest>();
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = String(body);
    rawBodies.set(request, text);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      unparsedBodies.add(request);
      done(null, undefined);
    }
  });
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (request, body, done) => {
      const text = String(body);
      rawBodies.set(request, text);
      done(null, Object.fromEntries(new URLSearchParams(text)));
    },
  );
  app.addContentTypeParser("application/graphql", { parseAs: "string" }, (request, body, done) => {
    rawBodies.set(request, String(body));
    done(null, String(body));
  });

  app.setErrorHandler(sendError);
  app.setNotFoundHandler(async (request, reply) =>
    reply
      .code(404)
      .send({ error: "not_found", message: `No route ${request.method} ${pathOf(request)}` }),
  );

  app.register(
    async (shopScope) => {
      await registerOAuthRoutes(shopScope, { state, grants, appConfig, now });
      await registerAdminApiRoutes(shopScope, {
        state,
        grants,
        graphql: () => graphql,
        log: graphqlLog,
        rawBodyOf: (request) => rawBodies.get(request),
        now,
      });
    },
    { prefix: SHOP_PREFIX },
  );
  app.register(registerControlRoutes, {
    prefix: CONTROL_PREFIX,
    state,
    grants,
    delivery,
    graphql: () => graphql,
    graphqlLog,
    bulk,
    appConfig,
    hasUnparsedBody: (request) => unparsedBodies.has(request),
    reset: () => {
      delivery.reset();
      bulk.reset();
      state.reset();
      carts.reset();
      grants.reset();
      graphqlLog.length = 0;
      graphql = createEngine();
    },
    now,
    ...(options.installTimeoutMs === undefined
      ? {}
      : { installTimeoutMs: options.installTimeoutMs }),
  });

  gzipStorefrontAnswers(app, [CONTROL_PREFIX, "/shops"]);
  const storefrontShop = () => storefrontShopOf(state.shops(), options.storefrontShop);
  const storefrontApp = () => options.storefrontApp ?? { block: true, embed: true };
  registerStorefrontCommerce(app, {
    state,
    storefrontShop,
    carts,
    renderSections,
    app: storefrontApp,
    ...(appConfig.appProxy ? { appProxy: appConfig.appProxy } : {}),
    now,
  });
  app.register(async (storefront) =>
    registerThemeRoutes(storefront, {
      state,
      storefrontShop,
      carts,
      app: storefrontApp,
    }),
  );
  app.register(registerEmbeddedAdmin, {
    state,
    appHandle: appConfig.handle,
    now,
    ...(options.storefrontShop === undefined ? {} : { storefrontShop: options.storefrontShop }),
  });

  app.addHook("onClose", async () => {
    await bulk.close();
    delivery.close();
  });
  return { app, state, delivery, bulk, carts };
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

export async function startStore(
  options: StoreOptions & { port?: number; host?: string } = {},
): Promise<RunningStore> {
  const { port = 0, host = "127.0.0.1", ...storeOptions } = options;
  const { app, state, bulk } = buildStore(storeOptions);
  await app.listen({ port, host });
  const address = app.server.address() as AddressInfo;
  const url = `http://${urlHost(host)}:${address.port}`;
  bulk.origin = url;
  return {
    url,
    state,
    bulk,
    close: async () => {
      await app.close();
    },
  };
}
