import { spawn } from "node:child_process";
import { prepareServer } from "./prepare-server";

// npm start (production): check the configuration, apply pending migrations, then serve
// the built app. Any instance may start first; migrations take a lock.
await prepareServer(process.env);

// The server runs as a direct child (no npx in between), so stop signals reach it. It gets this
// process's node options, the heap limit of `npm start` among them (decision 009).
const server = spawn(
  process.execPath,
  [...process.execArgv, "server/serve.ts", "./build/server/index.js"],
  { stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code) => process.exit(code ?? 0));
