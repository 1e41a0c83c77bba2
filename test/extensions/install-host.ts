import type { TargetName } from "./harness";
import {
  installOrderAdminHost,
  installOrderStatusHost,
  installThankYouHost,
  type StubConfig,
} from "./host-stubs";

// Imported first by the test bundle: Shopify's host defines the global `shopify` before an
// extension's modules run, and `@shopify/ui-extensions/preact` reads it when it loads.
const page = globalThis as unknown as { __stubTarget: TargetName; __stubConfig: StubConfig };
const installers: Record<TargetName, (config: StubConfig) => void> = {
  "thank-you": installThankYouHost,
  "order-status": installOrderStatusHost,
  "order-admin": installOrderAdminHost,
};
installers[page.__stubTarget](page.__stubConfig);
