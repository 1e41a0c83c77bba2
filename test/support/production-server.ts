import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { freePort, nodeArgsOfNpmScript } from "../../scripts/bench/processes";
import { repoRoot } from "./test-env";

/*
 * `npm start` as production runs it (the built app behind server/serve.ts) on a free port, and
 * raw HTTP/1.1 over a socket for requests that fetch cannot make: headers without their body,
 * a body sent slowly, a Content-Length that is a lie.
 */

export interface RunningServer {
  url: string;
  port: number;
  output: () => string;
  stop(): Promise<number | null>;
}

/**
 * `npm start` with `env` on top of the test's environment. `port` (free by default) and `urlHost`
 * let a caller put the server's own URL into `env` first, as SHOPIFY_APP_URL.
 */
export async function startProductionServer(
  env: Record<string, string>,
  options: { port?: number; urlHost?: string } = {},
): Promise<RunningServer> {
  if (!existsSync(path.join(repoRoot, "build/server/index.js"))) {
    throw new Error("build/server/index.js is missing: run `npm run build` first (npm test does)");
  }
  const port = options.port ?? (await freePort());
  // The test's own local store is for its in-process routes: a server gets a store only when
  // `env` names one (the app refuses one under NODE_ENV=production).
  const { SHOPIFY_ADMIN_ORIGIN: _testProcessStore, ...testEnv } = process.env;
  const child: ChildProcess = spawn(process.execPath, nodeArgsOfNpmScript(repoRoot, "start"), {
    cwd: repoRoot,
    env: {
      ...testEnv,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_OUTBOX_POLL_MS: "100",
      // No load balancer to wait for: a test's server stops at once unless the test says so.
      SVC_SHUTDOWN_DELAY_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const url = `http://${options.urlHost ?? "127.0.0.1"}:${port}`;
  for (const started = Date.now(); ;) {
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() - started > 30_000 || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error(`The server did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    port,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

export interface RawExchange {
  socket: net.Socket;
  /** The status of the first answer, or 0 when the connection closed without one. */
  answered: Promise<{ status: number; text: string; elapsedMs: number }>;
}

export interface RawOptions {
  /**
   * The address the connection comes from, as the server sees it: any of 127.0.0.0/8 on Linux,
   * so that tests of limits per address do not share one with each other.
   */
  localAddress?: string;
}

function connect(port: number, options: RawOptions): Promise<net.Socket> {
  return new Promise<net.Socket>((resolve, reject) => {
    const connection = net.connect(
      {
        port,
        host: "127.0.0.1",
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      () => resolve(connection),
    );
    connection.once("error", reject);
  });
}

/**
 * Opens a connection and writes `head` (request line and headers), the blank line that ends the
 * headers unless `endHeaders` is false, and `body` as given.
 */
export async function sendRaw(
  port: number,
  head: string[],
  body: string | Buffer = "",
  endHeaders = true,
  options: RawOptions = {},
): Promise<RawExchange> {
  const socket = await connect(port, options);
  const started = performance.now();
  const answered = new Promise<{ status: number; text: string; elapsedMs: number }>((resolve) => {
    let text = "";
    const done = () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        text,
        elapsedMs: performance.now() - started,
      });
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (/\r\n\r\n/.test(text)) done();
    });
    // The server may close while this side still writes: the answer read so far counts.
    socket.on("error", done);
    socket.once("close", done);
  });
  socket.write(`${head.join("\r\n")}\r\n${endHeaders ? "\r\n" : ""}`);
  if (body.length) socket.write(body);
  return { socket, answered };
}

export interface AskedExchange {
  socket: net.Socket;
  /** 100 when the server asked for the body, or the status it refused it with (0: closed). */
  decision: number;
  /** Everything the server sent after its decision, until the connection closed. */
  rest: Promise<{ status: number; text: string; elapsedMs: number }>;
}

/**
 * Sends `head` with `Expect: 100-continue` and waits for the server's decision on the body:
 * "100 Continue" once it admitted it (then the caller sends the body, or holds it), or its
 * refusal. A test then knows the server has counted the request, without a sleep.
 */
export async function askToSend(
  port: number,
  head: string[],
  options: RawOptions = {},
): Promise<AskedExchange> {
  const socket = await connect(port, options);
  const started = performance.now();
  let text = "";
  let decided: ((status: number) => void) | undefined;
  const decision = new Promise<number>((resolve) => (decided = resolve));
  const rest = new Promise<{ status: number; text: string; elapsedMs: number }>((resolve) => {
    const statusOf = (from: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(from)?.[1] ?? 0);
    const finalText = () => text.replace(/^HTTP\/1\.1 100 [^\r]*\r\n\r\n/, "");
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (/\r\n\r\n/.test(text)) decided?.(statusOf(text));
    });
    const done = () => {
      decided?.(statusOf(text));
      resolve({
        status: statusOf(finalText()),
        text: finalText(),
        elapsedMs: performance.now() - started,
      });
    };
    socket.on("error", done);
    socket.once("close", done);
  });
  socket.write(`${[...head, "Expect: 100-continue"].join("\r\n")}\r\n\r\n`);
  return { socket, decision: await decision, rest };
}
