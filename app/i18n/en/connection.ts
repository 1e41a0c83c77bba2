// English strings of the admin's connection page. Keys are nested objects; values may hold {name} placeholders.
export default {
  title: "Connection",
  empty: {
    heading: "Connect the protection service",
    body: "Enter the sandbox secret key from the service's merchant console below. Test orders then go to the sandbox, and you go live once the checklist passes.",
  },
  summary: {
    title: "Status",
    environment: "Environment",
    status: "Status",
    apiVersion: "API version",
    liveSince: "Live since {date}",
  },
  banners: {
    keyRejectedTitle: "The service rejected a secret key",
    keyRejectedBody:
      "Order events are paused: {count} waiting. Nothing is lost: they are sent as soon as a valid key is saved below.",
    secretUnreadableTitle: "The saved secret key cannot be read",
    secretUnreadableBody:
      "The app can no longer open the saved key (its encryption key changed). Order events are paused: {count} waiting. Nothing is lost: they are sent as soon as the key is saved again below.",
    keyMissingTitle: "No {keyName} secret key",
    keyMissingBody:
      "The store reports to the {environment} environment but has no key for it. Order events are paused: {count} waiting. They are sent as soon as a valid key is saved below.",
  },
  keyNames: { sandbox: "sandbox", production: "live" },
  keys: {
    sandboxTitle: "Sandbox keys",
    liveTitle: "Live keys",
    sandboxHelp:
      "For test orders. Copy them from the sandbox section of the service's merchant console.",
    liveHelp:
      "For real orders once you go live. The service shows the live publishable key after final testing.",
    secretKey: "Secret key",
    secretKeyHelp:
      "Checked with the service before it is saved. It is stored encrypted and only its last four characters are ever shown.",
    secretKeyReplace: "Enter a new key to replace the saved one",
    publishableKey: "Publishable key",
    publishableKeyHelp:
      "Used by the storefront scripts; it is not secret. Leave it empty to remove it.",
    saved: "Saved key: •••• {last4}",
    verifiedAt: "Accepted by the service on {date}",
    notVerified: "Not verified yet: save it again to check it",
    none: "No key saved",
    save: "Check and save",
    remove: "Remove key",
    removeTitle: "Remove the {keyName} secret key?",
    removeBody:
      "The key is deleted from this app (not from the service). If the store reports to this environment, order events wait until a new key is saved.",
    verifiedSaved: "The service accepted the key. It is saved.",
    publishableSaved: "The publishable key is saved.",
    removed: "The key was removed.",
    errors: {
      rejected:
        "The service rejected this key for the {keyName} environment. Check that you copied the whole {keyName} secret key. Nothing was saved.",
      unverified:
        "The service could not be reached to check this key, so nothing was saved. Try again in a minute.",
      secretKeyRequired: "Enter the secret key.",
      secretKeyFormat: "A secret key has at least 8 characters and no spaces.",
      publishableKeyFormat: "A publishable key has at most 256 characters and no spaces.",
    },
  },
  apiVersion: {
    title: "API version",
    help: "The version of the service's API this app asks for. Use v1.1 only if the service asked you to.",
    label: "API version",
    current: "v2.0 (current)",
    earliest: "v1.1 (earliest)",
    save: "Save version",
    saved: "The API version is saved.",
    errors: { invalid: "Choose v2.0 or v1.1." },
  },
  environment: {
    title: "Environment",
    inSandbox: "Orders are reported to the sandbox. Customers get no real protection yet.",
    inProduction:
      "Orders are reported to production. Customers who buy a plan get real protection.",
    checklistTitle: "Before going live",
    ready: "Every step is done: you can go live.",
    notReady: "Finish these steps first. The home page explains each one.",
    done: "Done",
    toDo: "To do",
    goLive: "Go live",
    backToSandbox: "Back to sandbox",
    goLiveTitle: "Go live?",
    goLiveBody:
      "New orders are then reported to production with the live key, and customers who buy a plan get real protection.",
    goLiveConfirm: "I tested orders in the sandbox and want to report real orders now.",
    backTitle: "Switch back to the sandbox?",
    backBody:
      "New orders are then reported to the sandbox only: customers who buy a plan get no real protection until you go live again. Events already recorded keep their environment.",
    backConfirm: "I understand that new orders will not reach production.",
    cancel: "Cancel",
    wentLive: "You are live: new orders are reported to production.",
    backInSandbox: "Back in the sandbox: new orders are reported to the sandbox.",
    errors: {
      confirm: "Tick the box to confirm.",
      notReady: "The go-live checklist does not pass yet, so the store stays in the sandbox.",
      keyRejected: "A secret key was rejected. Save a valid key before going live.",
    },
    steps: {
      sandbox_key: "Sandbox key accepted by the service",
      protection_items: "Protection items set up",
      app_embed: "Cart rules embed turned on in the theme",
      offer_block: "Protection offer block added to product pages",
      test_order: "Test order placed in the sandbox",
      sandbox_events: "Placement, fulfillment, refund and cancellation delivered in the sandbox",
      live_key: "Live key accepted by the service",
    },
  },
  backfill: {
    title: "Report earlier orders",
    reportFrom: "The app reports this store's orders created since {date}.",
    help: "It can also report orders from before then (a backfill): it reads them from Shopify in the background and records their events as if their webhooks had arrived.",
    scopeNote:
      "Shopify lets apps read orders of the last {days} days; older orders need the read_all_orders scope, which Shopify grants on request.",
    since: "Report orders since",
    sinceHelp: "A day in UTC, from {earliest} to today.",
    sinceHelpAll: "A day in UTC, up to today.",
    submit: "Report orders since this date",
    requested:
      "Backfill requested. The app reads the orders in the background; this page shows its progress.",
    requestedTitle: "Backfill waiting to start",
    runningTitle: "Backfill running",
    progressSince: "Orders created since {date}.",
    progress: "{done} of {total} orders checked, {events} events recovered.",
    progressUnknownTotal: "{done} orders checked so far, {events} events recovered.",
    reading:
      "Reading the orders with fulfilments, refunds or edits one by one, within the app's share of Shopify's API limit: {left} left.",
    resumes: "It resumes by itself after a restart of the app: you can leave this page.",
    completedTitle: "Backfill completed",
    completed:
      "Orders created since {date}: {orders} orders checked, {events} events recovered. Finished on {time}.",
    failedTitle: "Backfill failed",
    failed: "Orders created since {date}: the backfill stopped. {detail}",
    tryAgain: "Try again",
    errors: {
      tooOld:
        "Choose {date} or later: Shopify lets the app read only the orders of the last {days} days.",
      inFuture: "Choose today or a day in the past.",
      running: "A backfill is already under way. Wait until it has finished.",
      invalidDate: "Enter a date, for example 2025-01-31.",
      notReconciled: "Earlier orders can be reported once your keys are connected.",
    },
  },
  errors: {
    invalidForm: "The form could not be read. Reload the page and try again.",
    notInstalled: "This store's connection is missing. Open the app again from Shopify.",
  },
} as const;
