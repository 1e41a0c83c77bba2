import { describe, expect, it } from "vitest";
import { shopTimestamp, shopTimestampOrNull, timeZoneLabel } from "./timestamps";

describe("shopTimestamp", () => {
  it("writes whole seconds with the shop's offset, daylight saving included", () => {
    expect(shopTimestamp("2026-11-24T15:00:00.000Z", "America/New_York")).toBe(
      "2026-11-24T10:00:00-05:00",
    );
    expect(shopTimestamp("2026-07-01T15:00:00.999Z", "America/New_York")).toBe(
      "2026-07-01T11:00:00-04:00",
    );
    expect(shopTimestamp("2026-01-01T00:30:00Z", "Asia/Kolkata")).toBe("2026-01-01T06:00:00+05:30");
    expect(shopTimestamp("2026-03-29T00:59:59Z", "Europe/Paris")).toBe("2026-03-29T01:59:59+01:00");
    expect(shopTimestamp("2026-03-29T01:00:00Z", "Europe/Paris")).toBe("2026-03-29T03:00:00+02:00");
  });

  it("crosses the date line into the shop's day", () => {
    expect(shopTimestamp("2026-12-31T23:30:00Z", "Pacific/Auckland")).toBe(
      "2027-01-01T12:30:00+13:00",
    );
    expect(shopTimestamp("2026-01-01T02:00:00Z", "America/Los_Angeles")).toBe(
      "2025-12-31T18:00:00-08:00",
    );
  });

  it("writes Z for a shop on UTC, as Rails does", () => {
    expect(shopTimestamp("2026-11-24T15:00:00.123Z", "UTC")).toBe("2026-11-24T15:00:00Z");
    expect(shopTimestamp("2026-11-24T15:00:00Z", "Europe/London")).toBe(
      "2026-11-24T15:00:00+00:00",
    );
  });

  it("keeps null and refuses what is not a date", () => {
    expect(shopTimestampOrNull(null, "UTC")).toBeNull();
    expect(() => shopTimestamp("yesterday", "UTC")).toThrow('"yesterday"');
    expect(() => shopTimestamp("2026-11-24T15:00:00Z", "Mars/Olympus")).toThrow();
  });

  it("labels the shop's zone with its offset", () => {
    expect(timeZoneLabel("2026-11-24T15:00:00Z", "America/New_York")).toBe(
      "(GMT-05:00) America/New_York",
    );
    expect(timeZoneLabel("2026-11-24T15:00:00Z", "UTC")).toBe("(GMT+00:00) UTC");
  });
});
