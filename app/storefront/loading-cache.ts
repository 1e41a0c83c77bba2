/*
 * A bounded, expiring cache that also shares loads: while one caller loads a key, concurrent
 * callers of the same key wait for that load instead of starting their own. Only values the
 * loader marks as cacheable are kept. Pure (the clock is injected), so it is tested directly.
 */

export type Loaded<V> = { value: V; cacheable: boolean };

/** Where an answer came from: the cache, this caller's own load, or another caller's load. */
export type LoadSource = "cache" | "load" | "shared";

export interface LoadingCacheOptions {
  maxEntries: number;
  ttlMs: number;
  now?: () => number;
}

export class LoadingCache<V> {
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  // A Map iterates in insertion order: re-inserting on every hit makes the first key the least
  // recently used one.
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  readonly #loading = new Map<string, Promise<Loaded<V>>>();

  constructor(options: LoadingCacheOptions) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 0) {
      throw new Error(`LoadingCache: maxEntries must be a non-negative integer`);
    }
    if (!Number.isFinite(options.ttlMs) || options.ttlMs < 0) {
      throw new Error(`LoadingCache: ttlMs must be a non-negative number`);
    }
    this.#maxEntries = options.maxEntries;
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The cached value, if it has not expired; a hit makes the key the most recently used. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.#maxEntries === 0 || this.#ttlMs === 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#now() + this.#ttlMs });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  /**
   * The cached value, or the result of `load`, shared with every caller that asks for the same
   * key while it runs. A load that throws rejects every waiting caller and caches nothing.
   */
  async getOrLoad(
    key: string,
    load: () => Promise<Loaded<V>>,
  ): Promise<{ value: V; source: LoadSource }> {
    const cached = this.get(key);
    if (cached !== undefined) return { value: cached, source: "cache" };

    const running = this.#loading.get(key);
    if (running) return { value: (await running).value, source: "shared" };

    // load runs in a later microtask, so the promise is registered before anything can settle.
    const started = Promise.resolve()
      .then(load)
      .then((loaded) => {
        if (loaded.cacheable) this.set(key, loaded.value);
        return loaded;
      })
      .finally(() => this.#loading.delete(key));
    this.#loading.set(key, started);
    return { value: (await started).value, source: "load" };
  }
}
