import type { Logger } from "../logger.server";
import { beatHeartbeat, type WorkerName } from "../metrics/registry.server";
import { onOutboxNotified } from "./signal.server";

/*
 * The loop of a queue worker (the outbox's, and the Shopify actions' of decision 022): rounds
 * back to back while they find work, a poll interval's rest when one finds none, cut short when
 * a webhook in this process records new rows. Stopping lets the round in flight finish, then
 * hands back what the worker claimed.
 */

export interface QueueLoopOptions {
  /** Names the worker in its log lines: "Outbox worker". */
  name: string;
  log: Logger;
  /** Logged when the worker starts. */
  settings: Record<string, unknown>;
  pollIntervalMs: number;
  /** One round of work; the number of rows it handled (0: rest before the next). */
  round: () => Promise<number>;
  /** What `drain` runs round after round; `round` unless given. */
  drainRound?: () => Promise<number>;
  maxDrainRounds: number;
  /** After the last round, on stop: hands back what was claimed; the number of rows. */
  release: () => Promise<number>;
  /** The worker's heartbeat metric, set at every tick of the loop (issue 28). */
  heartbeat: WorkerName;
  /** Whether a webhook recorded in this process starts the next round at once (default true). */
  wakeOnOutbox?: boolean;
}

/** What a worker offers its callers. */
export interface QueueWorkerControls {
  /** Starts the polling loop. */
  start(): void;
  /** Stops claiming, waits for the work in flight, and hands back anything not started. */
  stop(): Promise<void>;
  /** Rounds until nothing is due. For tests and the CLI. */
  drain(maxRounds?: number): Promise<number>;
}

export interface QueueLoop {
  controls: QueueWorkerControls;
  /** True from the moment a stop is asked for: a round starts no new work then. */
  readonly stopRequested: boolean;
}

export function createQueueLoop(options: QueueLoopOptions): QueueLoop {
  const { log, name } = options;
  let running = false;
  let stopRequested = false;
  let loop: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let woken = false;
  let unsubscribe: (() => void) | null = null;

  async function run() {
    while (running) {
      beatHeartbeat(options.heartbeat);
      let handled = 0;
      try {
        handled = await options.round();
      } catch (error) {
        log.error({ err: error }, `${name} round failed; trying again after the poll interval`);
      }
      if (handled === 0 && running && !woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.pollIntervalMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      wake = null;
      woken = false;
    }
  }

  const controls: QueueWorkerControls = {
    start() {
      if (running) return;
      running = true;
      stopping = null;
      stopRequested = false;
      if (options.wakeOnOutbox !== false) {
        unsubscribe = onOutboxNotified(() => {
          woken = true;
          wake?.();
        });
      }
      log.info(options.settings, `${name} started`);
      loop = run();
    },
    stop() {
      // Every caller (a signal handler, the server's shutdown) waits for the same stop.
      stopping ??= (async () => {
        if (!running) return;
        running = false;
        stopRequested = true;
        unsubscribe?.();
        wake?.();
        await loop;
        const released = await options.release();
        log.info({ released }, `${name} stopped`);
      })();
      return stopping;
    },
    async drain(maxRounds = options.maxDrainRounds) {
      const round = options.drainRound ?? options.round;
      let total = 0;
      for (let count = 0; count < maxRounds; count += 1) {
        const handled = await round();
        if (!handled) break;
        total += handled;
      }
      return total;
    },
  };
  return {
    controls,
    get stopRequested() {
      return stopRequested;
    },
  };
}
