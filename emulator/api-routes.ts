import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { findPlans } from "./catalogue";
import { ERROR_CODES, errorBody, type ValidationErrorEntry } from "./errors";
import { computeCartActions, findAvailablePlans } from "./protection-rules";
import {
  cartUpdateRequestSchema,
  checkoutConfirmationSchema,
  checkoutsQuerySchema,
  eventEnvelopeSchema,
  ordersPathBodySchema,
  plansQuerySchema,
  type CartUpdateRequest,
  type CheckoutConfirmation,
  type CheckoutsQuery,
  type EnvironmentName,
  type OrderEvent,
  type PlansQuery,
} from "./schemas";
import {
  createEventId,
  type EmulatorState,
  type EnvironmentState,
  type OrderRecord,
} from "./state";

export const SUPPORTED_VERSIONS = ["v1.1", "v2.0"] as const;
export type SupportedVersion = (typeof SUPPORTED_VERSIONS)[number];
/** Spec: without the header a request uses the earliest supported version. */
export const DEFAULT_VERSION: SupportedVersion = "v1.1";

export type VersionResolution =
  { ok: true; version: SupportedVersion } | { ok: false; received: string };

export function resolveVersion(header: string | string[] | undefined): VersionResolution {
  if (header === undefined) return { ok: true, version: DEFAULT_VERSION };
  const received = Array.isArray(header) ? header.join(", ") : header;
  const supported = SUPPORTED_VERSIONS.find((version) => version === received);
  return supported ? { ok: true, version: supported } : { ok: false, received };
}

/** Why a request failed authentication; sent in the `svc-emulator-reason` header, never in the body. */
export type AuthFailure =
  "missing_authorization" | "malformed_authorization" | "key_for_other_environment" | "invalid_key";

export function checkAuthorization(
  header: string | undefined,
  environmentKey: string,
  otherEnvironmentKey: string,
): AuthFailure | null {
  if (header === undefined || header.trim() === "") return "missing_authorization";
  const bearer = /^Bearer +(\S+)\s*$/i.exec(header);
  const key = bearer?.[1];
  if (key === undefined) return "malformed_authorization";
  if (key === environmentKey) return null;
  return key === otherEnvironmentKey ? "key_for_other_environment" : "invalid_key";
}

export interface ApiRoutesOptions {
  environment: EnvironmentName;
  apiKey: string;
  otherEnvironmentKey: string;
  state: EmulatorState;
  /** Path prefix of the environment, "" for production and "/sandbox" for sandbox. */
  pathPrefix: string;
  hasUnparsedBody: (request: FastifyRequest) => boolean;
}

/** The `Idempotency-Key` header as sent (the spec has none; the emulator only records it). */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const value = request.headers["idempotency-key"];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

function pathOf(request: FastifyRequest): string {
  return request.url.split("?", 1)[0] ?? request.url;
}

type EntryListName =
  | "fulfillment_items"
  | "fulfillment_line_items"
  | "refund_items"
  | "refund_line_items"
  | "cancelled_line_items";

function findUnknownLineItems(
  order: OrderRecord,
  listName: EntryListName,
  entries: readonly { line_item_id: string }[],
): ValidationErrorEntry[] {
  const knownIds = new Set(order.placed.line_items.map((lineItem) => lineItem.id));
  return entries.flatMap((entry, index) =>
    knownIds.has(entry.line_item_id)
      ? []
      : [
          {
            field: `payload.${listName}[${index}].line_item_id`,
            message: `is not a line item of order ${order.order_id}`,
          },
        ],
  );
}

/** Environment-scoped API: register once per environment with its prefix. */
export async function registerApiRoutes(
  app: FastifyInstance,
  options: ApiRoutesOptions,
): Promise<void> {
  const { state, environment } = options;
  // Looked up per request because a reset replaces the environment's state.
  const currentEnvironmentState = (): EnvironmentState => state.environments[environment];

  // Order matters: an injected fault stands for infrastructure in front of the service, so it
  // comes first; then authentication, then the version, then the body.
  app.addHook("preValidation", async (request, reply) => {
    const fault = state.takeFault(request.method, pathOf(request));
    if (fault?.after === "commit") {
      // Applied to the answer by the server's onSend hook, once the request was processed.
      state.noteRequest(request, { fault: "commit", after_commit: fault });
    } else if (fault) {
      if (fault.delay_ms > 0) await sleep(fault.delay_ms);
      const scripted = fault.body !== undefined || fault.raw_body !== undefined;
      if (scripted || fault.status !== null) state.noteRequest(request, { fault: "before" });
      if (fault.raw_body !== undefined)
        return reply
          .code(fault.status ?? 200)
          .type("application/json")
          .send(fault.raw_body);
      if (fault.body !== undefined) return reply.code(fault.status ?? 200).send(fault.body);
      if (fault.status !== null)
        return reply.code(fault.status).send(errorBody(ERROR_CODES.injectedFault));
    }

    const authFailure = checkAuthorization(
      request.headers.authorization,
      options.apiKey,
      options.otherEnvironmentKey,
    );
    if (authFailure) {
      return reply
        .code(401)
        .header("svc-emulator-reason", authFailure)
        .send(errorBody(ERROR_CODES.unauthorized));
    }

    const version = resolveVersion(request.headers["svc-version"]);
    if (!version.ok) {
      return reply.code(400).send(
        errorBody(ERROR_CODES.unsupportedVersion, [
          {
            field: "headers.svc-version",
            message: `must be one of ${SUPPORTED_VERSIONS.join(", ")} (received "${version.received}")`,
          },
        ]),
      );
    }

    if (options.hasUnparsedBody(request)) {
      return reply
        .code(400)
        .send(
          errorBody(ERROR_CODES.invalidJson, [{ field: "body", message: "is not valid JSON" }]),
        );
    }
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const version = resolveVersion(request.headers["svc-version"]);
    if (version.ok) reply.header("Svc-Version", version.version);
    return payload;
  });

  function acceptEvent(event: OrderEvent, request: FastifyRequest, reply: FastifyReply) {
    const environmentState = currentEnvironmentState();
    const idempotencyKey = idempotencyKeyOf(request);
    const stored = (eventId: string) => {
      state.noteRequest(request, { event_id: eventId });
      return reply.send({ event_id: eventId });
    };
    if (event.type === "order_placed") {
      const eventId = createEventId();
      environmentState.recordOrderPlaced(event.payload, eventId, idempotencyKey);
      return stored(eventId);
    }

    // The spec requires placement first; refusing later events catches clients that reorder them.
    const order = environmentState.findOrder(event.payload.order_id);
    if (!order) return reply.code(404).send(errorBody(ERROR_CODES.orderNotFound));

    const eventId = createEventId();
    switch (event.type) {
      case "order_fulfillment_added": {
        const {
          fulfillment_items: fulfillmentItems,
          fulfillment_line_items: fulfillmentLineItems = [],
        } = event.payload;
        const [listName, entries] = fulfillmentItems
          ? (["fulfillment_items", fulfillmentItems] as const)
          : (["fulfillment_line_items", fulfillmentLineItems] as const);
        const unknown = findUnknownLineItems(order, listName, entries);
        if (unknown.length > 0)
          return reply.code(400).send(errorBody(ERROR_CODES.validationFailed, unknown));
        environmentState.recordFulfillments(order, entries, eventId, idempotencyKey);
        break;
      }
      case "order_refund_added": {
        const { refund_items: refundItems, refund_line_items: refundLineItems = [] } =
          event.payload;
        const [listName, entries] = refundItems
          ? (["refund_items", refundItems] as const)
          : (["refund_line_items", refundLineItems] as const);
        const unknown = findUnknownLineItems(order, listName, entries);
        if (unknown.length > 0)
          return reply.code(400).send(errorBody(ERROR_CODES.validationFailed, unknown));
        environmentState.recordRefunds(order, entries, eventId, idempotencyKey);
        break;
      }
      case "order_line_items_cancelled": {
        const entries = event.payload.cancelled_line_items;
        const unknown = findUnknownLineItems(order, "cancelled_line_items", entries);
        if (unknown.length > 0)
          return reply.code(400).send(errorBody(ERROR_CODES.validationFailed, unknown));
        environmentState.recordCancelledLineItems(order, entries, eventId, idempotencyKey);
        break;
      }
      case "order_cancelled":
        environmentState.recordOrderCancelled(
          order,
          event.payload.cancelled_at,
          eventId,
          idempotencyKey,
        );
        break;
    }
    return stored(eventId);
  }

  function acceptCheckoutConfirmation(
    confirmation: CheckoutConfirmation,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    // As a strict service would: a confirmation links a cart to an order it knows, so the
    // order's placement (the same order_id) must have come first.
    const environmentState = currentEnvironmentState();
    if (!environmentState.findOrder(confirmation.order_id)) {
      return reply.code(404).send(errorBody(ERROR_CODES.orderNotFound));
    }
    environmentState.recordCheckoutConfirmation(confirmation, idempotencyKeyOf(request));
    const { cart_id, user_session_id, order_id } = confirmation;
    return reply.send({ cart_id, user_session_id, order_id });
  }

  app.post<{ Body: OrderEvent }>(
    "/events",
    { schema: { body: eventEnvelopeSchema } },
    async (request, reply) => acceptEvent(request.body, request, reply),
  );

  app.post<{ Body: CheckoutConfirmation }>(
    "/cart_checkout",
    { schema: { body: checkoutConfirmationSchema } },
    async (request, reply) => acceptCheckoutConfirmation(request.body, request, reply),
  );

  // The spec's samples post both checkout confirmations and events to /orders.
  app.post<{ Body: OrderEvent | CheckoutConfirmation }>(
    "/orders",
    { schema: { body: ordersPathBodySchema } },
    async (request, reply) =>
      "type" in request.body
        ? acceptEvent(request.body, request, reply)
        : acceptCheckoutConfirmation(request.body, request, reply),
  );

  app.post<{ Body: CartUpdateRequest }>(
    "/cart_updates",
    { schema: { body: cartUpdateRequestSchema } },
    async (request, reply) => {
      const cart = request.body;
      currentEnvironmentState().recordCartUpdate(cart);
      return reply.send({
        cart_id: cart.cart_id,
        user_session_id: cart.user_session_id,
        actions: computeCartActions(cart.line_items),
      });
    },
  );

  app.get<{ Querystring: PlansQuery }>(
    "/plans",
    { schema: { querystring: plansQuerySchema } },
    async (request, reply) => {
      const query = request.query;
      const priceAmount = Number(query.price_amount);
      const { category, plans } = findPlans(state.catalogue, {
        product_id: query.product_id,
        title: query.product_title,
        category: query.product_category,
        price_amount: priceAmount,
        price_currency: query.price_currency,
      });
      return reply.send({
        product: {
          id: query.product_id,
          category: category?.id ?? query.product_category ?? "unknown",
          title: query.product_title ?? "",
          brand: query.product_brand ?? "",
          price_amount: priceAmount,
          price_currency: query.price_currency,
        },
        plans: plans.map((plan) => ({
          merchant_product_id: plan.merchant_product_id,
          price_amount: plan.price_amount,
          price_currency: state.catalogue.currency,
          product_reference: query.product_id,
          title: plan.title,
          insurance_details_url: plan.insurance_details_url,
        })),
      });
    },
  );

  app.get<{ Querystring: CheckoutsQuery }>(
    "/checkouts",
    { schema: { querystring: checkoutsQuerySchema } },
    async (request, reply) => {
      const { order_id: orderId, checkout_type: checkoutType } = request.query;
      const order = currentEnvironmentState().findOrder(orderId);
      if (!order) return reply.code(404).send(errorBody(ERROR_CODES.orderNotFound));
      const availablePlans = findAvailablePlans(order, state.catalogue);
      if (availablePlans.length === 0)
        return reply.code(404).send(errorBody(ERROR_CODES.noPlanAvailable));
      const { link } = currentEnvironmentState().findOrCreateCheckoutLink(
        orderId,
        checkoutType,
        (token) => `${request.protocol}://${request.host}${options.pathPrefix}/checkout/${token}`,
      );
      const linkField = checkoutType === "redirect" ? "redirect_link" : "assist_link";
      return reply.send({ order_id: orderId, [linkField]: link, available_plans: availablePlans });
    },
  );
}
