import type { MessageKey } from "../i18n/translate";
import type {
  OnlineStoreCheck,
  OnlineStorePublishStatus,
} from "../services/protection-items.server";

// The Protection items page (app.items) without I/O: what an action answers, and which
// products customers cannot add to carts yet, from the page's URL and Shopify's check.

/** `?check=online-store`: the page asks, once shown, whether its products are on the Online Store. */
export const ONLINE_STORE_CHECK = "online-store";

/** What the page shows after a map or remove: a message key, or field errors to mark. */
export type ItemsActionData =
  | { intent: "map"; status: "mapped"; count: number }
  | { intent: "map"; status: "not_found"; ids: string[] }
  | {
      intent: "map" | "remove";
      status: "invalid";
      fieldErrors: Record<string, MessageKey>;
      formErrors: MessageKey[];
    }
  | { intent: "map"; status: "shopify_error"; message: string }
  | { intent: "map"; status: "save_failed" }
  | { intent: "remove"; status: "removed" }
  | { intent: "remove"; status: "not_found" };

export type PublishIssue = Exclude<OnlineStorePublishStatus, "published">;
const PUBLISH_ISSUES: readonly string[] = [
  "no_online_store",
  "access_denied",
  "user_errors",
  "failed",
] satisfies PublishIssue[];

function publishIssueOf(value: string | null): PublishIssue | null {
  return value && PUBLISH_ISSUES.includes(value) ? (value as PublishIssue) : null;
}

/** A product the app created that customers cannot add to carts yet, and why. */
export interface UnpublishedProduct {
  productId: string;
  title: string;
  reason: PublishIssue | "not_published";
  message: string;
}

/**
 * What the page says about the Online Store: each product the app created that is not on it
 * (the one just created first, with the reason its publishing failed), and a check's failure
 * when no product's banner already gives that reason. `params` is the page's URL query, as the
 * new-product page redirects with it.
 */
export function onlineStoreNotices(check: OnlineStoreCheck | null, params: URLSearchParams) {
  const createdProduct = params.get("product");
  const createdIssue = createdProduct ? publishIssueOf(params.get("publish")) : null;
  const onlineStoreOf = new Map(
    check?.status === "checked"
      ? check.products.map((product) => [product.productId, product])
      : [],
  );
  const unpublished: UnpublishedProduct[] = [];
  if (createdProduct && createdIssue && onlineStoreOf.get(createdProduct)?.published !== true) {
    unpublished.push({
      productId: createdProduct,
      title: params.get("title") ?? onlineStoreOf.get(createdProduct)?.title ?? createdProduct,
      reason: createdIssue,
      message: params.get("publishError") ?? "",
    });
  }
  for (const product of onlineStoreOf.values()) {
    if (product.published || (createdIssue && product.productId === createdProduct)) continue;
    unpublished.push({
      productId: product.productId,
      title: product.title,
      reason: "not_published",
      message: "",
    });
  }
  // Said once: a product's banner already gives the reason the check would repeat.
  const checkIssue =
    (check?.status === "access_denied" || check?.status === "no_online_store") &&
    check.status !== createdIssue
      ? check.status
      : null;
  return { onlineStoreOf, unpublished, checkIssue };
}
