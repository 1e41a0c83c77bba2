import { describe, expect, it } from "vitest";
import { onlineStoreNotices } from "./items";

// What the Protection items page says about the Online Store, from its URL (as the new-product
// page redirects) and Shopify's answer to the page's check.

const created = (publish: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({ created: "3", product: "111", title: "Care Plan", publish, ...extra });

describe("onlineStoreNotices", () => {
  it("names the product just created whose publishing failed, with Shopify's words", () => {
    const notices = onlineStoreNotices(
      null,
      created("user_errors", { publishError: "Publication not found" }),
    );
    expect(notices.unpublished).toEqual([
      {
        productId: "111",
        title: "Care Plan",
        reason: "user_errors",
        message: "Publication not found",
      },
    ]);
    expect(notices.checkIssue).toBeNull();
  });

  it("drops the created product once the check finds it published, and adds the others not on it", () => {
    const notices = onlineStoreNotices(
      {
        status: "checked",
        products: [
          { productId: "111", title: "Care Plan", published: true },
          { productId: "222", title: "Old Plan", published: false },
        ],
      },
      created("failed"),
    );
    expect(notices.unpublished).toEqual([
      { productId: "222", title: "Old Plan", reason: "not_published", message: "" },
    ]);
    expect(notices.onlineStoreOf.get("111")?.published).toBe(true);
  });

  it("gives the created product's reason once, not again as the check's", () => {
    const check = { status: "access_denied" } as const;
    const withBanner = onlineStoreNotices(check, created("access_denied"));
    expect(withBanner.unpublished.map((product) => product.reason)).toEqual(["access_denied"]);
    expect(withBanner.checkIssue).toBeNull();
    expect(onlineStoreNotices(check, new URLSearchParams()).checkIssue).toBe("access_denied");
  });

  it("ignores a publish value that is no reason, and a check that failed", () => {
    const notices = onlineStoreNotices({ status: "failed" }, created("published"));
    expect(notices.unpublished).toEqual([]);
    expect(notices.checkIssue).toBeNull();
  });
});
