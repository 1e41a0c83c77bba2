import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/*
 * Dependencies point down (README, "Architecture"): a file in app/ never imports a layer above
 * its own. Each zone names what its folder may not import, written as import specifiers; one
 * `../` from a file directly in the folder reaches app/, and `../../` leaves it (test/support).
 * scripts/check-layers.mjs (npm run lint) also fails on any cycle between folders.
 */
const layerRule = (regex, message) => [
  "error",
  { patterns: [{ regex, message: `${message} Dependencies point down: see the README.` }] },
];
const layerZones = [
  {
    files: ["app/lib/**"],
    rules: {
      "no-restricted-imports": layerRule(
        String.raw`^(~/|\.\./(?!\.\./))`,
        "app/lib is the bottom layer: it imports nothing else of app/.",
      ),
    },
  },
  {
    files: ["app/orders/**", "app/offers/**"],
    rules: {
      "no-restricted-imports": layerRule(
        String.raw`^(~/|\.\./(?!\.\./|lib/|protection/types$))`,
        "The pure domain imports only app/lib, itself and the service's wire types (app/protection/types).",
      ),
    },
  },
  {
    files: ["app/graphql/**"],
    rules: {
      "no-restricted-imports": layerRule(
        String.raw`^(~/|\.\./(?!\.\./|lib/))`,
        "An Admin API operation imports only app/lib and the generated types in graphql/generated/.",
      ),
    },
  },
  {
    // The UI extensions run in Shopify's sandbox: nothing of the app, nothing of Node.
    files: ["extensions/*/src/**"],
    rules: {
      "no-restricted-imports": layerRule(
        String.raw`^(~/|node:|(\.\./){3})`,
        "A UI extension imports only its own src/, extensions/shared/ and its packages.",
      ),
    },
  },
  {
    files: ["extensions/shared/**"],
    rules: {
      "no-restricted-imports": layerRule(
        String.raw`^(~/|node:|(\.\./){2})`,
        "extensions/shared/ is bundled into the UI extensions: it imports nothing outside extensions/.",
      ),
    },
  },
  {
    files: ["app/models/**"],
    rules: {
      "no-restricted-imports": layerRule(
        String.raw`^(~/|(\.\./)+)(routes|admin|services|storefront|outbox|webhooks|cli|server|shopify\.server|entry\.server|root)(/|$)`,
        "app/models (data access) never imports the layers that use it.",
      ),
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".node22/",
      "build/",
      ".cache/",
      "app/generated/",
      // Codegen's output, checked by npm run graphql:check (decision 019).
      "graphql/generated/",
      "test/artifacts/",
      "extensions/**/assets/*.min.js",
      // Written by shopify app build: the UI extensions' bundles and their `shopify` types.
      "extensions/*/dist/",
      "extensions/*/shopify.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  ...layerZones,
  {
    files: ["scripts/**", "emulator/main.ts", "test/**"],
    rules: { "no-console": "off" },
  },
);
