import { describe, expect, it } from "vitest";
import { LoadingCache, type Loaded } from "./loading-cache";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

describe("LoadingCache", () => {
  it("keeps a cacheable value for ttlMs, then loads again", async () => {
    const time = clock();
    const cache = new LoadingCache<string>({ maxEntries: 10, ttlMs: 60_000, now: time.now });
    let loads = 0;
    const load = async (): Promise<Loaded<string>> => ({ value: `v${++loads}`, cacheable: true });

    expect(await cache.getOrLoad("a", load)).toEqual({ value: "v1", source: "load" });
    time.advance(59_999);
    expect(await cache.getOrLoad("a", load)).toEqual({ value: "v1", source: "cache" });
    time.advance(1);
    expect(await cache.getOrLoad("a", load)).toEqual({ value: "v2", source: "load" });
    expect(loads).toBe(2);
  });

  it("never keeps a value the loader marks as not cacheable", async () => {
    const cache = new LoadingCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    let loads = 0;
    const failing = async () => ({ value: `failure ${++loads}`, cacheable: false });
    await cache.getOrLoad("a", failing);
    expect(await cache.getOrLoad("a", failing)).toEqual({ value: "failure 2", source: "load" });
    expect(cache.size).toBe(0);
  });

  it("evicts the least recently used key beyond maxEntries", async () => {
    const cache = new LoadingCache<number>({ maxEntries: 2, ttlMs: 60_000 });
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // a is now more recent than b
    cache.set("c", 3);
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
  });

  it("keeps nothing when maxEntries or ttlMs is 0", () => {
    const noRoom = new LoadingCache<number>({ maxEntries: 0, ttlMs: 60_000 });
    const noTime = new LoadingCache<number>({ maxEntries: 10, ttlMs: 0 });
    noRoom.set("a", 1);
    noTime.set("a", 1);
    expect(noRoom.get("a")).toBeUndefined();
    expect(noTime.get("a")).toBeUndefined();
  });

  it("lets concurrent callers of one key share a single load", async () => {
    const cache = new LoadingCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    const pending = deferred<Loaded<string>>();
    let loads = 0;
    const load = () => {
      loads += 1;
      return pending.promise;
    };
    const first = cache.getOrLoad("a", load);
    const second = cache.getOrLoad("a", load);
    const other = cache.getOrLoad("b", async () => ({ value: "b", cacheable: true }));
    pending.resolve({ value: "shared", cacheable: true });

    expect(await first).toEqual({ value: "shared", source: "load" });
    expect(await second).toEqual({ value: "shared", source: "shared" });
    expect(await other).toEqual({ value: "b", source: "load" });
    expect(loads).toBe(1);
  });

  it("shares a failed load with its waiters, keeps nothing, and loads afresh afterwards", async () => {
    const cache = new LoadingCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    const pending = deferred<Loaded<string>>();
    const first = cache.getOrLoad("a", () => pending.promise);
    const second = cache.getOrLoad("a", () => pending.promise);
    pending.reject(new Error("database down"));
    await expect(first).rejects.toThrow("database down");
    await expect(second).rejects.toThrow("database down");
    expect(await cache.getOrLoad("a", async () => ({ value: "ok", cacheable: true }))).toEqual({
      value: "ok",
      source: "load",
    });
  });

  it("refuses a negative size or time", () => {
    expect(() => new LoadingCache({ maxEntries: -1, ttlMs: 1 })).toThrow(/maxEntries/);
    expect(() => new LoadingCache({ maxEntries: 1, ttlMs: -1 })).toThrow(/ttlMs/);
  });
});
