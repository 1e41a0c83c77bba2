import { sessionToken } from "./session-token";

// Remix routes called as Remix calls them, with the requests the embedded admin sends.

export const APP_ORIGIN = "https://svc-protection.test";

export type RouteFunction<Result> = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => Promise<Result>;

/** Calls a Remix loader or action the way Remix does: a thrown Response is the answer. */
export async function callRoute<Result>(
  route: RouteFunction<Result>,
  request: Request,
  params: Record<string, string> = {},
): Promise<Result | Response> {
  try {
    return await route({ request, params, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** A loader's or action's data; a Response (a redirect, a 401) fails the test with its status. */
export function routeData<Result>(answer: Result | Response): Result {
  if (answer instanceof Response) throw new Error(`Expected data, got a ${answer.status} response`);
  return answer;
}

export interface AdminRequestOptions {
  /** Posted as a form; a list of pairs keeps repeated fields in order. */
  form?: Record<string, string> | [string, string][];
  /** App Bridge's session token; a valid one for the shop unless given. */
  token?: string;
}

/**
 * A request from the embedded admin to `path` (which may carry its own query): the shop in the
 * query and App Bridge's session token in the Authorization header.
 */
export function adminRequest(
  shop: string,
  path: string,
  options: AdminRequestOptions = {},
): Request {
  const url = `${APP_ORIGIN}${path}${path.includes("?") ? "&" : "?"}shop=${shop}`;
  const headers = { Authorization: `Bearer ${options.token ?? sessionToken(shop)}` };
  return options.form === undefined
    ? new Request(url, { headers })
    : new Request(url, { method: "POST", headers, body: new URLSearchParams(options.form) });
}
