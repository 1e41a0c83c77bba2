import { describe, expect, it } from "vitest";
import { parseConnectionForm } from "./connection-form";
import {
  backfillPercent,
  backfillSinceOfDay,
  backfillStatusOf,
  backfillUnderWay,
  dayOf,
  defaultBackfillDay,
  formatUtcDay,
  isCalendarDay,
  nextRunOf,
  reconcileActivity,
  webhooksGoingMissing,
} from "./reconciliation";

const NOW = new Date("2025-06-15T10:30:00.000Z");
const minutes = (count: number) => new Date(NOW.getTime() + count * 60_000);

describe("reconcileActivity", () => {
  it("is running while a lease is live, queued while a request waits, else idle", () => {
    expect(reconcileActivity(null, NOW)).toBe("idle");
    expect(reconcileActivity({ requestedAt: null, leaseExpiresAt: null }, NOW)).toBe("idle");
    expect(reconcileActivity({ requestedAt: minutes(-1), leaseExpiresAt: null }, NOW)).toBe(
      "queued",
    );
    expect(reconcileActivity({ requestedAt: null, leaseExpiresAt: minutes(5) }, NOW)).toBe(
      "running",
    );
    // A run started at the merchant's request keeps the request until it ends: it is running.
    expect(reconcileActivity({ requestedAt: minutes(-1), leaseExpiresAt: minutes(5) }, NOW)).toBe(
      "running",
    );
  });

  it("takes an expired lease for a run that stopped: the request still waits", () => {
    expect(reconcileActivity({ requestedAt: null, leaseExpiresAt: minutes(-1) }, NOW)).toBe("idle");
    expect(reconcileActivity({ requestedAt: minutes(-10), leaseExpiresAt: minutes(-1) }, NOW)).toBe(
      "queued",
    );
  });
});

describe("nextRunOf", () => {
  it("is off when the schedule is, whatever the state says", () => {
    expect(nextRunOf(0, minutes(15), NOW)).toEqual({ kind: "off" });
    expect(nextRunOf(0, null, NOW)).toEqual({ kind: "off" });
  });

  it("is due for a shop never run or whose time has come, else at its time", () => {
    expect(nextRunOf(15, null, NOW)).toEqual({ kind: "due" });
    expect(nextRunOf(15, minutes(-2), NOW)).toEqual({ kind: "due" });
    expect(nextRunOf(15, NOW, NOW)).toEqual({ kind: "due" });
    expect(nextRunOf(15, minutes(12), NOW)).toEqual({
      kind: "at",
      at: "2025-06-15T10:42:00.000Z",
    });
  });
});

describe("webhooksGoingMissing", () => {
  it("warns from the configured number of recovering runs in a row", () => {
    expect(webhooksGoingMissing(0, 3)).toBe(false);
    expect(webhooksGoingMissing(2, 3)).toBe(false);
    expect(webhooksGoingMissing(3, 3)).toBe(true);
    expect(webhooksGoingMissing(7, 3)).toBe(true);
    expect(webhooksGoingMissing(1, 1)).toBe(true);
  });
});

describe("backfill dates", () => {
  const earliest = new Date("2025-04-16T10:30:00.000Z");

  it("offers the earliest day Shopify allows, or as far back without that limit", () => {
    expect(defaultBackfillDay(NOW, earliest, 60)).toBe("2025-04-16");
    expect(defaultBackfillDay(NOW, null, 60)).toBe("2025-04-16");
    expect(defaultBackfillDay(NOW, null, 30)).toBe("2025-05-16");
  });

  it("starts a day at its start in UTC, and the earliest day at the earliest moment", () => {
    expect(backfillSinceOfDay("2025-05-01", earliest)).toEqual(
      new Date("2025-05-01T00:00:00.000Z"),
    );
    expect(backfillSinceOfDay("2025-04-16", earliest)).toEqual(earliest);
    // A day before the earliest stays before it: requestBackfill refuses it as too old.
    expect(backfillSinceOfDay("2025-04-15", earliest)).toEqual(
      new Date("2025-04-15T00:00:00.000Z"),
    );
    // With read_all_orders any day starts at its start.
    expect(backfillSinceOfDay("2024-01-01", null)).toEqual(new Date("2024-01-01T00:00:00.000Z"));
  });

  it("accepts only real calendar days as YYYY-MM-DD", () => {
    expect(isCalendarDay("2025-02-28")).toBe(true);
    expect(isCalendarDay("2024-02-29")).toBe(true);
    expect(isCalendarDay("2025-02-29")).toBe(false);
    expect(isCalendarDay("2025-13-01")).toBe(false);
    expect(isCalendarDay("2025-6-1")).toBe(false);
    expect(isCalendarDay("01.06.2025")).toBe(false);
    expect(isCalendarDay("")).toBe(false);
  });

  it("writes a moment as its day in UTC, and days in the admin's language", () => {
    expect(dayOf(new Date("2025-06-15T23:59:59.999Z"))).toBe("2025-06-15");
    expect(formatUtcDay("2025-04-16", "en")).toBe("Apr 16, 2025");
    expect(formatUtcDay("2025-04-16T23:30:00.000Z", "de")).toBe("16. Apr. 2025");
  });
});

describe("backfill progress", () => {
  it("knows the stored statuses and which of them are under way", () => {
    expect(
      ["requested", "running", "completed", "failed", "done", null].map(backfillStatusOf),
    ).toEqual(["requested", "running", "completed", "failed", null, null]);
    expect(backfillUnderWay("requested")).toBe(true);
    expect(backfillUnderWay("running")).toBe(true);
    expect(backfillUnderWay("completed")).toBe(false);
    expect(backfillUnderWay("failed")).toBe(false);
    expect(backfillUnderWay(null)).toBe(false);
  });

  it("is a percentage once the total is known, never above 100", () => {
    expect(backfillPercent(10, null)).toBeNull();
    expect(backfillPercent(0, 400)).toBe(0);
    expect(backfillPercent(133, 400)).toBe(33);
    expect(backfillPercent(410, 400)).toBe(100);
    expect(backfillPercent(0, 0)).toBe(100);
  });
});

describe("the Connection page's backfill form", () => {
  it("takes a calendar day and refuses anything else as an error of the date field", () => {
    expect(parseConnectionForm({ intent: "request_backfill", since: " 2025-04-16 " })).toEqual({
      ok: true,
      form: { intent: "request_backfill", since: "2025-04-16" },
    });
    for (const since of ["2025-02-30", "yesterday", undefined]) {
      expect(parseConnectionForm({ intent: "request_backfill", since })).toEqual({
        ok: false,
        answer: {
          ok: false,
          intent: "request_backfill",
          environment: null,
          errors: { since: "connection.backfill.errors.invalidDate" },
        },
      });
    }
  });
});
