import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createReadStream } from "node:fs";
import { formatMinorUnits } from "../../app/lib/money";
import type { BulkOperation, BulkOperations } from "../graphql/bulk-operations";
import { appIdOf } from "../graphql/index";
import type {
  Customer,
  NewOrderInput,
  Order,
  Product,
  SeedLine,
  StoreActions,
  StoreShop,
} from "../model";
import {
  appScopesUpdateWebhookBody,
  customersDataRequestWebhookBody,
  customersRedactWebhookBody,
  fulfillmentWebhookBody,
  orderEditWebhookBody,
  orderWebhookBody,
  refundWebhookBody,
  shopRedactWebhookBody,
} from "../payloads/index";
import type { AdminGraphql, GraphqlLogEntry } from "./admin-api-routes";
import type { AppConfig } from "./app-config";
import {
  bulkFailureBody,
  bulkFileQuery,
  bulkPageDelayBody,
  cancelBody,
  createOrderBody,
  createProductBody,
  createShopBody,
  dropBody,
  editBody,
  emptyBody,
  fulfillmentBody,
  fulfillmentUpdateBody,
  idFromPath,
  idleQuery,
  minorUnitsOf,
  parseBody,
  refundBody,
  scopesBody,
  seedOrdersBody,
  throttleBody,
  tokenEndpointFaultBody,
  type Parsed,
  type Problem,
  type SeedLineBody,
} from "./control-input";
import { installApp } from "./install";
import type { AccessGrants } from "./oauth";
import type { WebhookDelivery } from "./webhook-delivery";

/*
 * The control API under /__store: tests, the dev script and outside checks create shops, install
 * the app, and act as the merchant in the Shopify admin (orders, fulfilments, refunds, cancels,
 * edits) or as Shopify itself (privacy requests, shop redaction, scope changes), which fires the
 * same webhooks as on Shopify. No authentication: local use only.
 * Orders, refunds, fulfilments and edits are answered as their webhooks carry them (IDs as exact
 * JSON numbers; each object's admin_graphql_api_id holds the same ID as a string).
 */

export interface ControlRoutesOptions {
  state: StoreActions;
  grants: AccessGrants;
  delivery: WebhookDelivery;
  graphql: () => AdminGraphql;
  graphqlLog: GraphqlLogEntry[];
  bulk: BulkOperations;
  appConfig: AppConfig;
  hasUnparsedBody: (request: FastifyRequest) => boolean;
  /** Forgets everything: shops, grants, deliveries, the GraphQL log and its throttle buckets. */
  reset: () => void;
  now: () => Date;
  installTimeoutMs?: number;
}

type ShopParams = { Params: { shop: string } };
type OrderParams = { Params: { shop: string; id: string } };
type CustomerParams = { Params: { shop: string; id: string } };

const DEFAULT_IDLE_TIMEOUT_MS = 10_000;

function sendProblems(reply: FastifyReply, problems: Problem[]) {
  return reply.code(400).send({
    error: "invalid_request",
    message: problems.map((problem) => `${problem.field} ${problem.message}`).join("; "),
    problems,
  });
}

function sendNotFound(reply: FastifyReply, message: string) {
  return reply.code(404).send({ error: "not_found", message });
}

function sendJsonText(reply: FastifyReply, status: number, json: string) {
  return reply.code(status).type("application/json; charset=utf-8").send(json);
}

function shopJson(shop: StoreShop) {
  return {
    shop: shop.domain,
    id: shop.id,
    admin_graphql_api_id: `gid://shopify/Shop/${shop.id}`,
    name: shop.name,
    email: shop.email,
    currency: shop.currency,
    plan: shop.plan,
    iana_timezone: shop.ianaTimezone,
    app_url: shop.app.url,
    api_key: shop.app.apiKey,
    installed: shop.installation !== null,
    scopes: shop.installation?.scopes ?? [],
    installed_at: shop.installation?.installedAt ?? null,
    online_store_publication_id: shop.onlineStorePublicationId,
    location_id: shop.locationId,
    created_at: shop.createdAt,
  };
}

function productJson(
  shop: StoreShop,
  product: Product,
  publications: { id: string; name: string }[],
) {
  const metafieldJson = (metafield: Product["metafields"][number]) => ({
    id: metafield.id,
    namespace: metafield.namespace,
    key: metafield.key,
    type: metafield.type,
    value: metafield.value,
    created_at: metafield.createdAt,
    updated_at: metafield.updatedAt,
  });
  return {
    id: product.id,
    admin_graphql_api_id: `gid://shopify/Product/${product.id}`,
    title: product.title,
    handle: product.handle,
    status: product.status,
    product_type: product.productType,
    vendor: product.vendor,
    tags: product.tags,
    publications: product.publicationIds.map((id) => ({
      id,
      name: publications.find((publication) => publication.id === id)?.name ?? null,
    })),
    metafields: product.metafields.map(metafieldJson),
    variants: product.variants.map((variant) => ({
      id: variant.id,
      admin_graphql_api_id: `gid://shopify/ProductVariant/${variant.id}`,
      title: variant.title,
      sku: variant.sku,
      price: formatMinorUnits(variant.price, shop.currency),
      requires_shipping: variant.requiresShipping,
      taxable: variant.taxable,
      grams: variant.grams,
      metafields: variant.metafields.map(metafieldJson),
    })),
    created_at: product.createdAt,
    updated_at: product.updatedAt,
  };
}

function bulkOperationJson(bulk: BulkOperations, operation: BulkOperation) {
  const fileUrl = bulk.fileUrl(operation);
  return {
    id: operation.id,
    admin_graphql_api_id: `gid://shopify/BulkOperation/${operation.id}`,
    status: operation.status,
    error_code: operation.errorCode,
    failure: operation.failure,
    query: operation.query,
    group_objects: operation.groupObjects,
    object_count: operation.objectCount,
    root_object_count: operation.rootObjectCount,
    file_size: operation.fileSize,
    url: operation.status === "COMPLETED" ? fileUrl : null,
    partial_data_url: operation.status === "FAILED" && operation.partialData ? fileUrl : null,
    created_at: operation.createdAt,
    completed_at: operation.completedAt,
  };
}

/** The order as its webhooks carry it, plus its committed edits as orders/edited carries them. */
function orderWithEditsJson(shop: StoreShop, order: Order): string {
  const orderJson = orderWebhookBody(shop, order).json.trimEnd();
  const edits = order.edits
    .filter((edit) => edit.committedAt !== null)
    .map((edit) => orderEditWebhookBody(shop, order, edit).json);
  const separator = orderJson === "{}" ? "" : ",";
  return `${orderJson.slice(0, -1)}${separator}"edits":[${edits.join(",")}]}`;
}

export async function registerControlRoutes(
  app: FastifyInstance,
  options: ControlRoutesOptions,
): Promise<void> {
  const { state, delivery, now } = options;

  app.addHook("preValidation", async (request, reply) => {
    if (options.hasUnparsedBody(request))
      return sendProblems(reply, [{ field: "body", message: "is not valid JSON" }]);
  });

  /** The shop of the route, or a 404 sent. */
  function shopOf(request: FastifyRequest<ShopParams>, reply: FastifyReply): StoreShop | null {
    const shop = state.shop(request.params.shop);
    if (!shop) {
      void sendNotFound(reply, `There is no shop ${request.params.shop} in the store`);
      return null;
    }
    return shop;
  }

  /** The shop and order of the route, or a 400/404 sent. */
  function orderOf(
    request: FastifyRequest<OrderParams>,
    reply: FastifyReply,
  ): { shop: StoreShop; order: Order } | null {
    const shop = shopOf(request, reply);
    if (!shop) return null;
    const id = idFromPath(request.params.id);
    if (id === null) {
      void sendProblems(reply, [
        { field: "id", message: "must be a numeric order ID or gid://shopify/Order/…" },
      ]);
      return null;
    }
    const order = state.order(shop.domain, id);
    if (!order) {
      void sendNotFound(reply, `There is no order ${id} in ${shop.domain}`);
      return null;
    }
    return { shop, order };
  }

  /** The shop and customer of the route, or a 400/404 sent. */
  function customerOf(
    request: FastifyRequest<CustomerParams>,
    reply: FastifyReply,
  ): { shop: StoreShop; customer: Customer } | null {
    const shop = shopOf(request, reply);
    if (!shop) return null;
    const id = idFromPath(request.params.id);
    if (id === null) {
      void sendProblems(reply, [
        { field: "id", message: "must be a numeric customer ID or gid://shopify/Customer/…" },
      ]);
      return null;
    }
    const customer = state.customers(shop.domain).find((candidate) => candidate.id === id);
    if (!customer) {
      void sendNotFound(reply, `There is no customer ${id} in ${shop.domain}`);
      return null;
    }
    return { shop, customer };
  }

  function parsed<T>(reply: FastifyReply, result: Parsed<T>): T | null {
    if (result.ok) return result.value;
    void sendProblems(reply, result.problems);
    return null;
  }

  app.post("/shops", async (request, reply) => {
    const body = parsed(reply, parseBody(createShopBody, request.body));
    if (!body) return reply;
    const shop = state.createShop({
      domain: body.shop,
      appUrl: body.app_url,
      apiKey: body.api_key,
      apiSecret: body.api_secret,
      ...(body.currency === undefined ? {} : { currency: body.currency }),
      ...(body.plan === undefined ? {} : { plan: body.plan }),
    });
    return reply.code(201).send(shopJson(shop));
  });

  app.get<ShopParams>("/shops/:shop", async (request, reply) => {
    const shop = shopOf(request, reply);
    return shop ? shopJson(shop) : reply;
  });

  app.post<ShopParams>("/shops/:shop/install", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    const outcome = await installApp({
      shop,
      state,
      grants: options.grants,
      appConfig: options.appConfig,
      now,
      ...(options.installTimeoutMs === undefined ? {} : { timeoutMs: options.installTimeoutMs }),
    });
    if (outcome.status === "failed")
      return reply.code(502).send({
        error: "install_failed",
        message: outcome.message,
        app_status: outcome.appStatus,
      });
    return { shop: shop.domain, installed: true, offline_session: true };
  });

  app.post<ShopParams>("/shops/:shop/uninstall", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    state.uninstall(shop.domain);
    return { shop: shop.domain, installed: false };
  });

  app.post<ShopParams>("/shops/:shop/scopes", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    const body = parsed(reply, parseBody(scopesBody, request.body));
    if (!body) return reply;
    const change = state.updateScopes(shop.domain, body.scopes);
    return sendJsonText(reply, 200, appScopesUpdateWebhookBody(shop, change).json);
  });

  app.post<ShopParams>("/shops/:shop/redact", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    if (!parsed(reply, parseBody(emptyBody, request.body))) return reply;
    state.redactShop(shop.domain);
    return sendJsonText(reply, 200, shopRedactWebhookBody(shop).json);
  });

  app.post<CustomerParams>("/shops/:shop/customers/:id/data_request", async (request, reply) => {
    const found = customerOf(request, reply);
    if (!found) return reply;
    if (!parsed(reply, parseBody(emptyBody, request.body))) return reply;
    const dataRequest = state.requestCustomerData(found.shop.domain, found.customer.id);
    return sendJsonText(reply, 200, customersDataRequestWebhookBody(found.shop, dataRequest).json);
  });

  app.post<CustomerParams>("/shops/:shop/customers/:id/redact", async (request, reply) => {
    const found = customerOf(request, reply);
    if (!found) return reply;
    if (!parsed(reply, parseBody(emptyBody, request.body))) return reply;
    const redaction = state.redactCustomer(found.shop.domain, found.customer.id);
    return sendJsonText(reply, 200, customersRedactWebhookBody(found.shop, redaction).json);
  });

  app.post<ShopParams>("/shops/:shop/throttle", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    const body = parsed(reply, parseBody(throttleBody, request.body));
    if (!body) return reply;
    options.graphql().emptyBucket(shop.domain);
    return { shop: shop.domain, available: 0 };
  });

  // The token endpoint as a test meets it: how many refresh grants came, and a fault for the next.
  const tokenEndpointJson = (shop: StoreShop) => {
    const fault = options.grants.refreshFault(shop.domain);
    return {
      shop: shop.domain,
      refresh_requests: options.grants.refreshRequests(shop.domain),
      fault: fault && { status: fault.status, delay_ms: fault.delayMs, remaining: fault.remaining },
    };
  };

  app.get<ShopParams>("/shops/:shop/token_endpoint", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    return tokenEndpointJson(shop);
  });

  app.post<ShopParams>("/shops/:shop/token_endpoint", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    const body = parsed(reply, parseBody(tokenEndpointFaultBody, request.body));
    if (!body) return reply;
    options.grants.setRefreshFault(shop.domain, {
      status: body.status ?? null,
      delayMs: body.delay_ms ?? 0,
      remaining: body.count ?? 1,
    });
    return tokenEndpointJson(shop);
  });

  app.get<ShopParams>("/shops/:shop/products", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    const publications = state.publications(shop.domain);
    return {
      products: state
        .products(shop.domain)
        .map((product) => productJson(shop, product, publications)),
    };
  });

  app.post<ShopParams>("/shops/:shop/products", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    const body = parsed(reply, parseBody(createProductBody, request.body));
    if (!body) return reply;
    const problems: Problem[] = [];
    const variants = body.variants.map((variant, index) => {
      const price = minorUnitsOf(variant.price, shop.currency, `variants[${index}].price`);
      if (!price.ok) problems.push(price.problem);
      return {
        title: variant.title,
        price: price.ok ? price.value : 0,
        ...(variant.sku === undefined ? {} : { sku: variant.sku }),
        ...(variant.requires_shipping === undefined
          ? {}
          : { requiresShipping: variant.requires_shipping }),
        ...(variant.taxable === undefined ? {} : { taxable: variant.taxable }),
      };
    });
    if (problems.length > 0) return sendProblems(reply, problems);
    const merchant = { kind: "merchant" } as const;
    let product = state.setProduct(
      shop.domain,
      {
        title: body.title,
        status: body.status ?? "ACTIVE",
        ...(body.product_type === undefined ? {} : { productType: body.product_type }),
        ...(body.vendor === undefined ? {} : { vendor: body.vendor }),
        variants,
      },
      merchant,
    );
    if (body.published !== false) {
      product = state.publish(shop.domain, product.id, [shop.onlineStorePublicationId], merchant);
    }
    return reply.code(201).send(productJson(shop, product, state.publications(shop.domain)));
  });

  app.post<ShopParams>("/shops/:shop/orders", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    const body = parsed(reply, parseBody(createOrderBody, request.body));
    if (!body) return reply;
    const currency = body.currency ?? shop.currency;
    const problems: Problem[] = [];
    const lineItems: NewOrderInput["lineItems"] = body.line_items.map((line, index) => {
      let price: number | undefined;
      if (line.price !== undefined) {
        const amount = minorUnitsOf(line.price, currency, `line_items[${index}].price`);
        if (amount.ok) price = amount.value;
        else problems.push(amount.problem);
      }
      return {
        ...(line.variant_id === undefined ? {} : { variantId: line.variant_id }),
        ...(line.title === undefined ? {} : { title: line.title }),
        ...(price === undefined ? {} : { price }),
        quantity: line.quantity,
        ...(line.properties === undefined ? {} : { properties: line.properties }),
        ...(line.requires_shipping === undefined
          ? {}
          : { requiresShipping: line.requires_shipping }),
        ...(line.fulfillment_service === undefined
          ? {}
          : { fulfillmentService: line.fulfillment_service }),
      };
    });
    if (problems.length > 0) return sendProblems(reply, problems);
    const customer = body.customer;
    const order = state.createOrder(shop.domain, {
      lineItems,
      ...(body.currency === undefined ? {} : { currency: body.currency }),
      ...(customer === undefined
        ? {}
        : {
            customer: {
              ...(customer.email === undefined ? {} : { email: customer.email }),
              ...(customer.first_name === undefined ? {} : { firstName: customer.first_name }),
              ...(customer.last_name === undefined ? {} : { lastName: customer.last_name }),
              ...(customer.phone === undefined ? {} : { phone: customer.phone }),
            },
          }),
      ...(body.note_attributes === undefined ? {} : { noteAttributes: body.note_attributes }),
      ...(body.email === undefined ? {} : { email: body.email }),
      ...(body.cart_token === undefined ? {} : { cartToken: body.cart_token }),
      ...(body.source_name === undefined ? {} : { sourceName: body.source_name }),
    });
    return sendJsonText(reply, 201, orderWebhookBody(shop, order).json);
  });

  app.post<ShopParams>("/shops/:shop/orders/seed", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    const body = parsed(reply, parseBody(seedOrdersBody, request.body));
    if (!body) return reply;
    const problems: Problem[] = [];
    const seedLine = (line: SeedLineBody, field: string): SeedLine => {
      let price: number | undefined;
      if (line.price !== undefined) {
        const amount = minorUnitsOf(line.price, shop.currency, `${field}.price`);
        if (amount.ok) price = amount.value;
        else problems.push(amount.problem);
      }
      return {
        ...(line.variant_id === undefined ? {} : { variantId: line.variant_id }),
        ...(line.title === undefined ? {} : { title: line.title }),
        ...(price === undefined ? {} : { price }),
        ...(line.requires_shipping === undefined
          ? {}
          : { requiresShipping: line.requires_shipping }),
      };
    };
    const lineItems = body.line_items?.map((line, index) => seedLine(line, `line_items[${index}]`));
    const plan = body.plan && seedLine(body.plan, "plan");
    if (problems.length > 0) return sendProblems(reply, problems);
    const started = performance.now();
    const seeded = state.seedOrders(shop.domain, {
      count: body.count,
      ...(lineItems === undefined ? {} : { lineItems }),
      ...(plan === undefined ? {} : { plan }),
      ...(body.shares === undefined ? {} : { shares: body.shares }),
      ...(body.created_from === undefined ? {} : { createdFrom: body.created_from }),
      ...(body.created_to === undefined ? {} : { createdTo: body.created_to }),
      ...(body.seed === undefined ? {} : { seed: body.seed }),
    });
    return reply.code(201).send({
      count: seeded.count,
      first_order_id: seeded.firstOrderId,
      last_order_id: seeded.lastOrderId,
      created_from: seeded.createdFrom,
      created_to: seeded.createdTo,
      protected: seeded.protected,
      edited: seeded.edited,
      fulfilled: seeded.fulfilled,
      refunded: seeded.refunded,
      duration_ms: Math.round(performance.now() - started),
    });
  });

  app.get<OrderParams>("/shops/:shop/orders/:id", async (request, reply) => {
    const found = orderOf(request, reply);
    if (!found) return reply;
    return sendJsonText(reply, 200, orderWithEditsJson(found.shop, found.order));
  });

  app.post<OrderParams>("/shops/:shop/orders/:id/fulfillments", async (request, reply) => {
    const found = orderOf(request, reply);
    if (!found) return reply;
    const body = parsed(reply, parseBody(fulfillmentBody, request.body));
    if (!body) return reply;
    const tracking = body.tracking_info;
    const fulfillment = state.fulfil(
      found.shop.domain,
      found.order.id,
      body.line_items.map((line) => ({ lineItemId: line.id, quantity: line.quantity })),
      { kind: "merchant" },
      tracking,
    );
    const order = state.order(found.shop.domain, found.order.id) ?? found.order;
    return sendJsonText(reply, 201, fulfillmentWebhookBody(found.shop, order, fulfillment).json);
  });

  app.post<{ Params: { shop: string; id: string; fulfillment: string } }>(
    "/shops/:shop/orders/:id/fulfillments/:fulfillment",
    async (request, reply) => {
      const found = orderOf(request, reply);
      if (!found) return reply;
      const fulfillmentId = idFromPath(request.params.fulfillment);
      if (!fulfillmentId) return sendNotFound(reply, "No such fulfillment");
      const body = parsed(reply, parseBody(fulfillmentUpdateBody, request.body));
      if (!body) return reply;
      const fulfillment = state.updateFulfillment(
        found.shop.domain,
        found.order.id,
        fulfillmentId,
        {
          ...(body.tracking_info === undefined ? {} : { tracking: body.tracking_info }),
          ...(body.shipment_status === undefined ? {} : { shipmentStatus: body.shipment_status }),
        },
        { kind: "merchant" },
      );
      const order = state.order(found.shop.domain, found.order.id) ?? found.order;
      return sendJsonText(reply, 200, fulfillmentWebhookBody(found.shop, order, fulfillment).json);
    },
  );

  app.post<OrderParams>("/shops/:shop/orders/:id/refunds", async (request, reply) => {
    const found = orderOf(request, reply);
    if (!found) return reply;
    const body = parsed(reply, parseBody(refundBody, request.body));
    if (!body) return reply;
    let amount: number | undefined;
    if (body.amount !== undefined) {
      const converted = minorUnitsOf(body.amount, found.order.currency, "amount");
      if (!converted.ok) return sendProblems(reply, [converted.problem]);
      amount = converted.value;
    }
    const refund = state.refund(
      found.shop.domain,
      found.order.id,
      {
        lines: body.refund_line_items.map((line) => ({
          lineItemId: line.line_item_id,
          quantity: line.quantity,
          restockType: line.restock_type ?? "no_restock",
        })),
        ...(body.note === undefined ? {} : { note: body.note }),
        ...(amount === undefined ? {} : { amount }),
      },
      { kind: "merchant" },
    );
    const order = state.order(found.shop.domain, found.order.id) ?? found.order;
    return sendJsonText(reply, 201, refundWebhookBody(found.shop, order, refund).json);
  });

  app.post<OrderParams>("/shops/:shop/orders/:id/cancel", async (request, reply) => {
    const found = orderOf(request, reply);
    if (!found) return reply;
    const body = parsed(reply, parseBody(cancelBody, request.body));
    if (!body) return reply;
    const order = state.cancel(found.shop.domain, found.order.id, body, { kind: "merchant" });
    return sendJsonText(reply, 200, orderWebhookBody(found.shop, order).json);
  });

  app.post<OrderParams>("/shops/:shop/orders/:id/edits", async (request, reply) => {
    const found = orderOf(request, reply);
    if (!found) return reply;
    const body = parsed(reply, parseBody(editBody, request.body));
    if (!body) return reply;
    const { domain } = found.shop;
    const edit = state.beginEdit(domain, found.order.id, { kind: "merchant" });
    for (const line of body.set_quantities)
      state.stageQuantity(domain, edit.id, line.line_item_id, line.quantity);
    const order = state.commitEdit(domain, edit.id, {
      ...(body.notify_customer === undefined ? {} : { notifyCustomer: body.notify_customer }),
      ...(body.staff_note === undefined ? {} : { staffNote: body.staff_note }),
    });
    const committed = order.edits.find((candidate) => candidate.id === edit.id) ?? edit;
    return sendJsonText(reply, 200, orderEditWebhookBody(found.shop, order, committed).json);
  });

  app.get<ShopParams>("/shops/:shop/bulk_operations", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    return {
      bulk_operations: options.bulk
        .list(shop.domain, appIdOf(shop))
        .map((operation) => bulkOperationJson(options.bulk, operation)),
    };
  });

  app.post<ShopParams>("/shops/:shop/bulk_operations/fail_next", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    const body = parsed(reply, parseBody(bulkFailureBody, request.body));
    if (!body) return reply;
    const failure = {
      errorCode: body.error_code ?? "INTERNAL_SERVER_ERROR",
      afterObjects: body.after_objects ?? 0,
    } as const;
    options.bulk.failNext(shop.domain, failure);
    return {
      shop: shop.domain,
      error_code: failure.errorCode,
      after_objects: failure.afterObjects,
    };
  });

  app.post<ShopParams>("/shops/:shop/bulk_operations/page_delay", async (request, reply) => {
    const shop = shopOf(request, reply);
    if (!shop) return reply;
    const body = parsed(reply, parseBody(bulkPageDelayBody, request.body));
    if (!body) return reply;
    options.bulk.delayPages(shop.domain, body.page_delay_ms);
    return { shop: shop.domain, page_delay_ms: body.page_delay_ms };
  });

  // A bulk operation's file, at its URL: no token, as Shopify's signed storage URLs.
  app.get<{ Params: { file: string } }>("/bulk/:file", async (request, reply) => {
    const id = /^(\d+)\.jsonl$/.exec(request.params.file)?.[1];
    if (!id) return sendNotFound(reply, `No bulk operation file ${request.params.file}`);
    const query = parsed(reply, parseBody(bulkFileQuery, request.query));
    if (!query) return reply;
    const file = options.bulk.file(id, query.signature);
    if (!file) {
      return reply
        .code(403)
        .send({ error: "access_denied", message: "The URL's signature does not match the file" });
    }
    return reply.type("application/jsonl").send(createReadStream(file));
  });

  app.get("/graphql", async () => ({ requests: options.graphqlLog }));

  app.get("/webhooks", async () => ({
    deliveries: delivery.attempts,
    pending: delivery.pending,
    in_flight: delivery.inFlight,
    drops: delivery.drops(),
  }));

  app.post("/webhooks/drop", async (request, reply) => {
    const body = parsed(reply, parseBody(dropBody, request.body));
    if (!body) return reply;
    return { drops: delivery.dropNext(body.count, body.topic ?? null) };
  });

  app.get("/webhooks/idle", async (request, reply) => {
    const query = parsed(reply, parseBody(idleQuery, request.query));
    if (!query) return reply;
    const idle = await delivery.waitUntilIdle(query.timeout_ms ?? DEFAULT_IDLE_TIMEOUT_MS);
    const status = { idle, pending: delivery.pending, in_flight: delivery.inFlight };
    return idle ? status : reply.code(408).send(status);
  });

  app.post("/reset", async (_request, reply) => {
    options.reset();
    return reply.code(204).send();
  });
}
