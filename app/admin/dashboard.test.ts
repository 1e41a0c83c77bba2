import { describe, expect, it } from "vitest";
import {
  attachRate,
  chartAxisMax,
  dashboardFrom,
  DAY_MS,
  eventCategory,
  eventTotals,
  eventWindows,
  formatDay,
  formatPercent,
  isQuiet,
  orderTotals,
  type DashboardFacts,
} from "./dashboard";

// Intl separates with no-break spaces; the expectations are written with plain ones.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

const NOW = new Date("2026-11-22T15:00:00.000Z");

function quietFacts(): DashboardFacts {
  return {
    environment: "sandbox",
    now: NOW,
    eventCounts: Array.from({ length: 7 }, () => []),
    ordersLast24h: [],
    ordersLast7d: [],
    ordersWithoutPlan: [],
    protectableVariantIds: [],
  };
}

describe("eventWindows", () => {
  it("covers exactly the last 7 × 24 hours in adjoining windows, the last one ending now", () => {
    const windows = eventWindows(NOW);
    expect(windows).toHaveLength(7);
    expect(windows[0]!.start.toISOString()).toBe("2026-11-15T15:00:00.000Z");
    expect(windows[6]).toEqual({ start: new Date(NOW.getTime() - DAY_MS), end: NOW });
    for (let index = 1; index < windows.length; index += 1) {
      expect(windows[index]!.start).toEqual(windows[index - 1]!.end);
      expect(windows[index]!.end.getTime() - windows[index]!.start.getTime()).toBe(DAY_MS);
    }
  });
});

describe("event totals", () => {
  it("reads retrying, dead and unprocessable events as failed, pending and delivering as waiting", () => {
    expect(eventCategory("delivered")).toBe("delivered");
    expect(["failed", "dead", "unprocessable"].map(eventCategory)).toEqual([
      "failed",
      "failed",
      "failed",
    ]);
    expect(["pending", "delivering"].map(eventCategory)).toEqual(["waiting", "waiting"]);
    expect(eventCategory("something_new")).toBeNull();
    expect(
      eventTotals([
        { status: "delivered", count: 5 },
        { status: "failed", count: 2 },
        { status: "dead", count: 1 },
        { status: "pending", count: 3 },
        { status: "something_new", count: 9 },
      ]),
    ).toEqual({ delivered: 5, failed: 3, waiting: 3 });
  });
});

describe("dashboardFrom", () => {
  it("gives zero figures and no attach rate for a quiet shop", () => {
    const dashboard = dashboardFrom(quietFacts());
    expect(dashboard.events).toEqual({
      last24h: { delivered: 0, failed: 0, waiting: 0 },
      last7d: { delivered: 0, failed: 0, waiting: 0 },
    });
    expect(dashboard.orders).toEqual({
      last24h: { reportedOrders: 0, protectedOrders: 0, planRevenue: [] },
      last7d: { reportedOrders: 0, protectedOrders: 0, planRevenue: [] },
      attach: { ordersWithPlan: 0, ordersWithProtectableProduct: 0, rate: null },
    });
    expect(dashboard.days).toHaveLength(7);
    expect(isQuiet(dashboard)).toBe(true);
  });

  it("takes the last window as the last 24 hours and sums all seven for the week", () => {
    const facts = quietFacts();
    facts.eventCounts = [
      [{ status: "delivered", count: 1 }],
      [],
      [{ status: "failed", count: 2 }],
      [],
      [],
      [{ status: "delivered", count: 4 }],
      [
        { status: "delivered", count: 3 },
        { status: "dead", count: 1 },
        { status: "pending", count: 2 },
      ],
    ];
    const dashboard = dashboardFrom(facts);
    expect(dashboard.events.last24h).toEqual({ delivered: 3, failed: 1, waiting: 2 });
    expect(dashboard.events.last7d).toEqual({ delivered: 8, failed: 3, waiting: 2 });
    expect(dashboard.days.map((day) => [day.delivered, day.failed])).toEqual([
      [1, 0],
      [0, 0],
      [0, 2],
      [0, 0],
      [0, 0],
      [4, 0],
      [3, 1],
    ]);
    expect(dashboard.days[6]).toMatchObject({
      start: "2026-11-21T15:00:00.000Z",
      end: NOW.toISOString(),
    });
    expect(isQuiet(dashboard)).toBe(false);
  });

  it("refuses counts that do not match the windows", () => {
    expect(() => dashboardFrom({ ...quietFacts(), eventCounts: [[]] })).toThrow(
      "1 event windows, expected 7",
    );
  });

  it("adds orders, protected orders and plan revenue per currency, largest first", () => {
    const dashboard = dashboardFrom({
      ...quietFacts(),
      ordersLast24h: [
        { currency: "eur", planLineCount: 1, orders: 1, planRevenue: 1999 },
        { currency: "eur", planLineCount: 0, orders: 4, planRevenue: 0 },
      ],
      ordersLast7d: [
        { currency: "jpy", planLineCount: 1, orders: 2, planRevenue: 3000 },
        { currency: "eur", planLineCount: 1, orders: 2, planRevenue: 3998 },
        { currency: "eur", planLineCount: 3, orders: 1, planRevenue: 1999 },
        { currency: "eur", planLineCount: 0, orders: 6, planRevenue: 0 },
        { currency: "usd", planLineCount: 0, orders: 1, planRevenue: 0 },
      ],
      ordersWithoutPlan: [
        { variantIds: '["111"]', orders: 1 },
        { variantIds: '["999"]', orders: 3 },
      ],
      protectableVariantIds: ["111"],
    });
    expect(dashboard.orders.last24h).toEqual({
      reportedOrders: 5,
      protectedOrders: 1,
      planRevenue: [{ currency: "EUR", amount: 1999 }],
    });
    expect(dashboard.orders.last7d).toEqual({
      reportedOrders: 12,
      protectedOrders: 5,
      planRevenue: [
        { currency: "EUR", amount: 5997 },
        { currency: "JPY", amount: 3000 },
      ],
    });
    // 5 orders with a plan, one more with a protectable product.
    expect(dashboard.orders.attach).toEqual({
      ordersWithPlan: 5,
      ordersWithProtectableProduct: 6,
      rate: 5 / 6,
    });
    expect(isQuiet(dashboard)).toBe(false);
  });

  it("merges currency codes that differ only in case", () => {
    expect(
      orderTotals([
        { currency: "eur", planLineCount: 1, orders: 1, planRevenue: 100 },
        { currency: "EUR", planLineCount: 2, orders: 2, planRevenue: 50 },
      ]),
    ).toEqual({
      reportedOrders: 3,
      protectedOrders: 3,
      planRevenue: [{ currency: "EUR", amount: 150 }],
    });
  });
});

describe("attachRate", () => {
  const protectable = ["111", "222"];

  it("divides orders with a plan by orders with a protectable product", () => {
    const rate = attachRate(
      1,
      [
        { variantIds: '["222","999"]', orders: 2 },
        { variantIds: '["111"]', orders: 1 },
        { variantIds: '["999"]', orders: 4 },
        { variantIds: "[]", orders: 1 },
      ],
      protectable,
    );
    expect(rate).toEqual({ ordersWithPlan: 1, ordersWithProtectableProduct: 4, rate: 1 / 4 });
  });

  it("counts an order with a plan as protectable even when the storefront never noted it", () => {
    expect(attachRate(2, [{ variantIds: '["111"]', orders: 5 }], [])).toEqual({
      ordersWithPlan: 2,
      ordersWithProtectableProduct: 2,
      rate: 1,
    });
  });

  it("has no rate without a protectable order, and skips unreadable variant lists", () => {
    const unreadable = ["not json", '{"111":true}', "[111]"].map((variantIds) => ({
      variantIds,
      orders: 1,
    }));
    expect(attachRate(0, unreadable, protectable)).toEqual({
      ordersWithPlan: 0,
      ordersWithProtectableProduct: 0,
      rate: null,
    });
  });
});

describe("formatting", () => {
  it("formats the attach rate as a percentage and days in UTC", () => {
    expect(plain(formatPercent(1 / 3, "en"))).toBe("33.3%");
    expect(plain(formatPercent(0.5, "de"))).toBe("50 %");
    expect(plain(formatDay("2026-11-22T00:30:00.000Z", "en"))).toBe("Nov 22");
    expect(plain(formatDay("2026-11-22T23:30:00.000Z", "de"))).toBe("22. Nov.");
  });

  it("rounds the chart's axis up to 1, 2 or 5 × 10^n", () => {
    expect([0, 1, 2, 3, 7, 10, 11, 26, 480, 501].map(chartAxisMax)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 50, 500, 1000,
    ]);
  });
});
