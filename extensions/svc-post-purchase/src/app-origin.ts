import { APPLICATION_URL } from "./application-url";

// The Shopify CLI's bundler replaces `process.env.APP_URL` with the dev tunnel's URL under
// `shopify app dev`; in a deployed bundle nothing replaces it and `process` does not exist in
// the extension's worker, so the URL of shopify.app.toml (written at build time) applies.
declare const process: { env: { APP_URL?: string } };

export function appOrigin(): string {
  let devUrl: string | undefined;
  try {
    devUrl = process.env.APP_URL;
  } catch {
    devUrl = undefined;
  }
  return new URL(devUrl || APPLICATION_URL).origin;
}
