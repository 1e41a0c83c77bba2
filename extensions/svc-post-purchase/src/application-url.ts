// Written by npm run build:extension from shopify.app.toml's application_url; CI checks it.
export const APPLICATION_URL = "https://localhost:3000";
