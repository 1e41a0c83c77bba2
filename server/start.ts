import "./production-default";
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { prepareServer } from "./prepare-server";

// npm start (production unless NODE_ENV says development or test): check the configuration,
// apply pending migrations, then serve the built app. Any instance may start first; migrations
// take a lock.
await prepareServer(process.env);

// The server runs as a direct child (no npx in between), so stop signals reach it. It gets this
// process's node options, the heap limit of `npm start` among them (decision 009), and its
// environment, NODE_ENV included.
const server = spawn(
  process.execPath,
  [...process.execArgv, "server/serve.ts", "./build/server/index.js"],
  { stdio: "inherit" },
);
let forwarded: NodeJS.Signals | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    forwarded = signal;
    server.kill(signal);
  });
}
server.on("exit", (code, signal) => {
  if (signal === null) process.exit(code ?? 1);
  // Killed: by the stop this process passed on, or by something else (the kernel's OOM killer),
  // which a restart-on-failure supervisor must see as a failure: 128 + the signal's number.
  const status = 128 + (constants.signals[signal] ?? 0);
  if (signal === forwarded) process.exit(0);
  console.error(`The server process was killed by ${signal}: exiting with ${status}`);
  process.exit(status);
});
