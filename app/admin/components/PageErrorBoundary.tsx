import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { Banner, Page, Text } from "@shopify/polaris";
import { boundary } from "@shopify/shopify-app-remix/server";
import { useTranslate } from "../../i18n/react";
import type { MessageKey } from "../../i18n/translate";

/**
 * The error boundary of an admin page. Shopify's own responses (re-authentication, redirects)
 * are rendered by its boundary, as the library expects; anything else gets the page's title
 * and a banner that says what to do. Keys are i18n keys.
 */
export function PageErrorBoundary({
  titleKey,
  headingKey = "common.errors.title",
  bodyKey = "common.errors.retry",
}: {
  titleKey: MessageKey;
  headingKey?: MessageKey;
  bodyKey?: MessageKey;
}) {
  const error = useRouteError();
  const t = useTranslate();
  if (isRouteErrorResponse(error)) return boundary.error(error);
  return (
    <Page title={t(titleKey)}>
      <Banner tone="critical" title={t(headingKey)}>
        <Text as="p">{t(bodyKey)}</Text>
      </Banner>
    </Page>
  );
}

/** A route's `ErrorBoundary` export: the page boundary with that route's keys. */
export function pageErrorBoundary(keys: Parameters<typeof PageErrorBoundary>[0]) {
  return function ErrorBoundary() {
    return <PageErrorBoundary {...keys} />;
  };
}
