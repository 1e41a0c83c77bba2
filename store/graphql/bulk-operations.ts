import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { type WriteStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import type { GraphQLSchema } from "./graphql-js";
import { IdSequence } from "../ids";
import type { Id, StoreShop, WebhookSink } from "../model";
import { bulkOperationWebhookBody } from "../payloads/index";
import type { BulkQueryPlan } from "./bulk-query";
import { runBulkQuery } from "./bulk-run";
import type { AdminContext } from "./context";

/*
 * The bulk query operations of every shop, and their runs. A run starts after the mutation has
 * answered, in the background, and writes its JSONL to a file in a temporary directory that the
 * store serves at the operation's `url` (`/__store/bulk/<id>.jsonl?signature=…`, no token, as
 * Shopify's signed storage URLs). An operation belongs to the shop and app that created it: no
 * other can read or cancel it. Tests make a shop's next operation fail, or slow each page of its
 * runs to watch one RUNNING (store/README.md, "Bulk operations").
 */

export type BulkOperationStatus =
  "CREATED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELING" | "CANCELED";

export type BulkOperationErrorCode = "ACCESS_DENIED" | "INTERNAL_SERVER_ERROR" | "TIMEOUT";

/** From API 2026-01 on, an app runs up to five bulk queries at a time per shop. */
export const MAX_RUNNING_BULK_QUERIES = 5;

const IN_PROGRESS: readonly BulkOperationStatus[] = ["CREATED", "RUNNING", "CANCELING"];

export interface BulkOperation {
  id: Id;
  shop: string;
  appId: Id;
  query: string;
  groupObjects: boolean;
  status: BulkOperationStatus;
  errorCode: BulkOperationErrorCode | null;
  createdAt: string;
  /** Set when the operation completes; null for one that failed or was cancelled. */
  completedAt: string | null;
  objectCount: number;
  rootObjectCount: number;
  /** Bytes of the complete file; null until the operation completes. */
  fileSize: number | null;
  /** What went wrong in a failed run, for the control API (Shopify says only `errorCode`). */
  failure: string | null;
  /** Whether a failed run left the objects it wrote before failing (`partialDataUrl`). */
  partialData: boolean;
}

/** A failure a test asks for: the shop's next operation fails after writing `afterObjects`. */
export interface InjectedFailure {
  errorCode: BulkOperationErrorCode;
  afterObjects: number;
}

export interface StartBulkQuery {
  shop: StoreShop;
  appId: Id;
  query: string;
  groupObjects: boolean;
  plan: BulkQueryPlan;
  schema: GraphQLSchema;
  /** A context for each page the run executes, as the app's requests have. */
  context: () => AdminContext;
  /** The shop as it is when the run ends, for the bulk_operations/finish webhook. */
  currentShop: () => StoreShop | undefined;
}

interface OperationFile {
  path: string;
  signature: string;
}

/** A JSONL file written line by line, waiting when the disk is behind. */
class JsonlWriter {
  private readonly stream: WriteStream;
  private failure: Error | undefined;

  constructor(file: string) {
    this.stream = createWriteStream(file);
    this.stream.on("error", (error) => {
      this.failure = error;
    });
  }

  async write(object: Record<string, unknown>): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.stream.write(`${JSON.stringify(object)}\n`)) await once(this.stream, "drain");
  }

  /** Closes the file; answers its size in bytes. */
  async close(): Promise<number> {
    this.stream.end();
    await finished(this.stream).catch(() => undefined);
    return this.stream.bytesWritten;
  }
}

export class BulkOperations {
  private readonly ids = new IdSequence();
  private readonly now: () => number;
  private readonly onWebhook: WebhookSink | undefined;
  private readonly operations = new Map<Id, BulkOperation>();
  private readonly files = new Map<Id, OperationFile>();
  private readonly failures = new Map<string, InjectedFailure>();
  private readonly pageDelays = new Map<string, number>();
  private readonly runs = new Map<Id, Promise<void>>();
  /** Runs waiting out a page delay, woken when the delay or the operation changes. */
  private readonly sleepers = new Set<() => void>();
  /** Bumped by reset: runs of an earlier generation stop and announce nothing. */
  private generation = 0;
  private directory: string | undefined;
  /** The store's origin, for the operations' URLs. */
  origin = "http://127.0.0.1";

  constructor(options: { now?: () => number; onWebhook?: WebhookSink } = {}) {
    this.now = options.now ?? Date.now;
    this.onWebhook = options.onWebhook;
  }

  private time(): string {
    return new Date(this.now()).toISOString();
  }

  /** The shop's app's operations, newest first. */
  list(shop: string, appId: Id): BulkOperation[] {
    return [...this.operations.values()]
      .filter((operation) => operation.shop === shop && operation.appId === appId)
      .reverse();
  }

  /** The operation, only for the shop and app that created it. */
  find(shop: string, appId: Id, id: Id): BulkOperation | undefined {
    const operation = this.operations.get(id);
    return operation?.shop === shop && operation.appId === appId ? operation : undefined;
  }

  inProgress(shop: string, appId: Id): BulkOperation[] {
    return this.list(shop, appId)
      .filter((operation) => IN_PROGRESS.includes(operation.status))
      .reverse();
  }

  /** The URL of the operation's file: its `url` once complete, `partialDataUrl` once failed. */
  fileUrl(operation: BulkOperation): string | null {
    const file = this.files.get(operation.id);
    return file
      ? `${this.origin}/__store/bulk/${operation.id}.jsonl?signature=${file.signature}`
      : null;
  }

  /** The file of an operation's URL, when the signature is the URL's. */
  file(id: Id, signature: string): string | undefined {
    const file = this.files.get(id);
    return file && file.signature === signature ? file.path : undefined;
  }

  /** The next operation of the shop fails (status FAILED with `errorCode`). */
  failNext(shop: string, failure: InjectedFailure): void {
    this.failures.set(shop, failure);
  }

  /** Each page of the shop's runs waits `ms` first (0: no wait), running ones included. */
  delayPages(shop: string, ms: number): void {
    if (ms > 0) this.pageDelays.set(shop, ms);
    else this.pageDelays.delete(shop);
    this.wake();
  }

  /** Resolves once the operation's run has ended (at once for one without a run). */
  async settled(id: Id): Promise<void> {
    await this.runs.get(id);
  }

  start(input: StartBulkQuery): BulkOperation {
    const operation: BulkOperation = {
      id: this.ids.nextId(),
      shop: input.shop.domain,
      appId: input.appId,
      query: input.query,
      groupObjects: input.groupObjects,
      status: "CREATED",
      errorCode: null,
      createdAt: this.time(),
      completedAt: null,
      objectCount: 0,
      rootObjectCount: 0,
      fileSize: null,
      failure: null,
      partialData: false,
    };
    this.operations.set(operation.id, operation);
    const failure = this.failures.get(operation.shop);
    this.failures.delete(operation.shop);
    const run = this.run(operation, input, failure, this.generation);
    this.runs.set(operation.id, run);
    return operation;
  }

  /** Starts the cancellation: the run stops at its next object or page. */
  cancel(operation: BulkOperation): void {
    if (operation.status === "CREATED" || operation.status === "RUNNING") {
      operation.status = "CANCELING";
      this.wake();
    }
  }

  /** Forgets every operation and file; runs under way stop without a webhook. */
  reset(): void {
    this.generation += 1;
    this.operations.clear();
    this.files.clear();
    this.failures.clear();
    this.pageDelays.clear();
    this.wake();
    if (this.directory) rmSync(this.directory, { recursive: true, force: true });
    this.directory = undefined;
  }

  async close(): Promise<void> {
    this.reset();
    await Promise.allSettled(this.runs.values());
  }

  private wake(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  private current(operation: BulkOperation, generation: number): boolean {
    return generation === this.generation && operation.status !== "CANCELING";
  }

  /** Waits out the shop's page delay, cut short when the operation is cancelled or forgotten. */
  private async pageDelay(operation: BulkOperation, generation: number): Promise<void> {
    const started = Date.now();
    for (;;) {
      const left = started + (this.pageDelays.get(operation.shop) ?? 0) - Date.now();
      if (left <= 0 || !this.current(operation, generation)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.sleepers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.sleepers.add(done);
      });
    }
  }

  private newFile(operation: BulkOperation): OperationFile {
    this.directory ??= mkdtempSync(path.join(tmpdir(), "svc-store-bulk-"));
    const file = {
      path: path.join(this.directory, `${operation.id}.jsonl`),
      signature: randomBytes(16).toString("hex"),
    };
    this.files.set(operation.id, file);
    return file;
  }

  private async run(
    operation: BulkOperation,
    input: StartBulkQuery,
    failure: InjectedFailure | undefined,
    generation: number,
  ): Promise<void> {
    // Not in the mutation's request: the app gets CREATED first, as from Shopify.
    await new Promise((resolve) => setImmediate(resolve));
    if (!this.current(operation, generation)) return this.finish(operation, input, generation);
    operation.status = "RUNNING";
    let file: JsonlWriter | undefined;
    const failing = () => failure !== undefined && operation.objectCount >= failure.afterObjects;
    const goOn = () => this.current(operation, generation) && !failing();
    try {
      const writer = new JsonlWriter(this.newFile(operation).path);
      file = writer;
      await runBulkQuery(input.plan, {
        schema: input.schema,
        context: input.context,
        groupObjects: operation.groupObjects,
        sink: {
          beforePage: async () => {
            await this.pageDelay(operation, generation);
            return goOn();
          },
          write: async (object, isRoot) => {
            await writer.write(object);
            operation.objectCount += 1;
            if (isRoot) operation.rootObjectCount += 1;
            return goOn();
          },
        },
      });
      // A run with fewer objects than the failure waits for fails at its end.
      if (failure) this.fail(operation, failure.errorCode, "The control API asked for a failure");
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.fail(operation, "INTERNAL_SERVER_ERROR", why);
    }
    const size = (await file?.close()) ?? 0;
    if (operation.status === "RUNNING") {
      operation.status = "COMPLETED";
      operation.completedAt = this.time();
      operation.fileSize = size;
    }
    this.finish(operation, input, generation);
  }

  private fail(operation: BulkOperation, errorCode: BulkOperationErrorCode, why: string): void {
    if (operation.status !== "RUNNING") return;
    operation.status = "FAILED";
    operation.errorCode = errorCode;
    operation.failure = why;
    operation.partialData = operation.objectCount > 0;
  }

  /** A cancelled run ends CANCELED; any end but a kept file's drops the file; then the webhook. */
  private finish(operation: BulkOperation, input: StartBulkQuery, generation: number): void {
    if (generation !== this.generation) return;
    if (operation.status === "CANCELING") operation.status = "CANCELED";
    if (
      operation.status === "CANCELED" ||
      (operation.status === "FAILED" && !operation.partialData)
    ) {
      const file = this.files.get(operation.id);
      if (file) rmSync(file.path, { force: true });
      this.files.delete(operation.id);
    }
    const shop = input.currentShop();
    if (shop && this.onWebhook) {
      this.onWebhook(shop, "bulk_operations/finish", bulkOperationWebhookBody(shop, operation));
    }
  }
}
