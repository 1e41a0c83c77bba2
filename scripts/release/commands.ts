import { nodeArgsOfNpmScript } from "../bench/processes";

/*
 * The release's processes and the npm script behind each. The Dockerfile, docker-compose.yml and
 * the Procfile run node with the script's arguments: one process less than npm. The scripts
 * themselves `exec` node, or npm's stop signal would reach only the shell it runs them in, which
 * dies without passing it on (decision 040). release-files.test.ts keeps all three equal to
 * these, and npm run test:release boots them.
 */

export const RELEASE_ROLES = {
  /** The web process (the image's default command): npm start. */
  web: "start",
  /** An outbox and Shopify action worker: npm run worker. */
  worker: "worker",
  /** The release step, once per deploy before the new processes start: npm run db:migrate. */
  release: "db:migrate",
} as const;

export type ReleaseRole = keyof typeof RELEASE_ROLES;

/** The operator CLI (npm run svc), which the release also carries. */
export const SVC_SCRIPT = "svc";

/** `node <args>` of the role's npm script in `root`'s package.json. */
export function releaseCommand(root: string, role: ReleaseRole | typeof SVC_SCRIPT): string[] {
  const script = role === SVC_SCRIPT ? SVC_SCRIPT : RELEASE_ROLES[role];
  return ["node", ...nodeArgsOfNpmScript(root, script)];
}
