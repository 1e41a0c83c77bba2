import { describe, expect, it } from "vitest";
import { BenchmarkError, databasesOption, median, percentile, positiveInteger } from "./stats";

describe("percentile", () => {
  it("is the nearest rank of the unsorted samples", () => {
    const samples = [9, 1, 5, 3, 7, 2, 8, 4, 10, 6];
    expect(percentile(samples, 0.5)).toBe(5);
    expect(percentile(samples, 0.95)).toBe(10);
    expect(percentile(samples, 0.99)).toBe(10);
    expect(percentile(samples, 0)).toBe(1);
    expect(samples[0]).toBe(9);
  });

  it("is NaN without samples", () => {
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe("median", () => {
  it("is the middle value, or the mean of the two middle values", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe("positiveInteger", () => {
  it("reads a whole number at least the minimum", () => {
    expect(positiveInteger("runs", "30")).toBe(30);
    expect(positiveInteger("warm-up", "0")).toBe(0);
    expect(positiveInteger("loads", "5", 5)).toBe(5);
  });

  it("stops the run on anything else, naming the option", () => {
    expect(() => positiveInteger("runs", "3.5")).toThrow(
      new BenchmarkError("--runs must be a whole number ≥ 0, not 3.5"),
    );
    expect(() => positiveInteger("runs", "-1")).toThrow(BenchmarkError);
    expect(() => positiveInteger("runs", "many")).toThrow(BenchmarkError);
    expect(() => positiveInteger("loads", "4", 5)).toThrow(
      "--loads must be a whole number ≥ 5, not 4",
    );
  });
});

describe("databasesOption", () => {
  it("reads --db", () => {
    expect(databasesOption("sqlite")).toEqual(["sqlite"]);
    expect(databasesOption("postgresql")).toEqual(["postgresql"]);
    expect(databasesOption("both")).toEqual(["sqlite", "postgresql"]);
    expect(() => databasesOption("mysql")).toThrow(
      "--db must be sqlite, postgresql or both, not mysql",
    );
  });
});
