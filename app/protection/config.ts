import { API_VERSIONS, ENVIRONMENTS } from "./types";
import type { ApiVersion, Environment } from "./types";

/**
 * The address every call of one environment goes to, always ending in "/".
 * Production is `{base_url}`; sandbox is `{base_url}` followed by `sandbox/`.
 */
export function serviceBaseUrl(baseUrl: string, environment: Environment): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new Error(`Invalid protection service base URL "${baseUrl}": not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`Invalid protection service base URL "${baseUrl}": expected http or https`);
  }
  if (url.search !== "" || url.hash !== "") {
    throw new Error(
      `Invalid protection service base URL "${baseUrl}": must not carry a query or fragment`,
    );
  }
  if (!url.pathname.endsWith("/")) url.pathname = `${url.pathname}/`;
  return environment === "sandbox" ? new URL("sandbox/", url).href : url.href;
}

/**
 * Which path receives order events and checkout confirmations. The spec names
 * /events and /cart_checkout in its rules but posts to /orders in several samples.
 * See docs/decisions/003-endpoint-paths.md.
 */
export type EndpointPaths = {
  events: "events" | "orders";
  cartCheckout: "cart_checkout" | "orders";
};

export const DEFAULT_ENDPOINT_PATHS: Readonly<EndpointPaths> = Object.freeze({
  events: "events",
  cartCheckout: "cart_checkout",
});

function parseChoice<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
  settingName: string,
  format: (choice: T) => string,
): T {
  if (value === undefined || value.trim() === "") return fallback;
  const normalised = value.trim().replace(/^\/+/, "").replace(/\/+$/, "");
  const match = allowed.find((choice) => choice === normalised);
  if (match === undefined) {
    const expected = allowed.map((choice) => `"${format(choice)}"`).join(" or ");
    throw new Error(`Invalid ${settingName} "${value}": expected ${expected}`);
  }
  return match;
}

/** Each endpoint's setting and the paths it may name. */
const ENDPOINT_PATH_SETTINGS: {
  [Endpoint in keyof EndpointPaths]: { settingName: string; allowed: EndpointPaths[Endpoint][] };
} = {
  events: { settingName: "SVC_EVENTS_PATH", allowed: ["events", "orders"] },
  cartCheckout: { settingName: "SVC_CHECKOUT_PATH", allowed: ["cart_checkout", "orders"] },
};

/** Parses one endpoint's path setting, e.g. "/orders"; unset or empty gives the default. */
function parseEndpointPath<Endpoint extends keyof EndpointPaths>(
  endpoint: Endpoint,
  value: string | undefined,
): EndpointPaths[Endpoint] {
  const { settingName, allowed } = ENDPOINT_PATH_SETTINGS[endpoint];
  const fallback = DEFAULT_ENDPOINT_PATHS[endpoint];
  return parseChoice(value, allowed, fallback, settingName, (choice) => `/${choice}`);
}

/** Parses SVC_EVENTS_PATH ("/events" or "/orders"). */
export const parseEventsPath = (value: string | undefined) => parseEndpointPath("events", value);

/** Parses SVC_CHECKOUT_PATH ("/cart_checkout" or "/orders"). */
export const parseCartCheckoutPath = (value: string | undefined) =>
  parseEndpointPath("cartCheckout", value);

export function parseEndpointPaths(settings: {
  eventsPath?: string;
  cartCheckoutPath?: string;
}): EndpointPaths {
  return {
    events: parseEventsPath(settings.eventsPath),
    cartCheckout: parseCartCheckoutPath(settings.cartCheckoutPath),
  };
}

export function parseEnvironment(
  value: string | undefined,
  settingName = "SVC_ENVIRONMENT",
): Environment {
  const match = ENVIRONMENTS.find((choice) => choice === value?.trim());
  if (match === undefined) {
    throw new Error(`Invalid ${settingName} "${value ?? ""}": expected "sandbox" or "production"`);
  }
  return match;
}

/** Unset or empty gives the current version, v2.0. */
export function parseApiVersion(
  value: string | undefined,
  settingName = "SVC_API_VERSION",
): ApiVersion {
  return parseChoice(value, API_VERSIONS, "v2.0", settingName, (choice) => choice);
}
