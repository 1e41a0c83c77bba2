import { Banner, Layout, Text } from "@shopify/polaris";
import { Children, isValidElement, type ReactNode } from "react";

/**
 * The banners at the top of a page, each in its own full-width section of the page's layout.
 * A banner that is not shown (null) takes no section.
 */
export function BannerSections({ children }: { children: ReactNode }) {
  return Children.toArray(children).map((banner, index) => (
    <Layout.Section key={isValidElement(banner) && banner.key !== null ? banner.key : index}>
      {banner}
    </Layout.Section>
  ));
}

/** A call to Shopify that failed: what it means for the page, then Shopify's own message. */
export function ShopifyErrorBanner({
  title,
  body,
  message,
}: {
  title: string;
  body: string;
  message: string;
}) {
  return (
    <Banner tone="critical" title={title}>
      <p>{body}</p>
      <Text as="p" tone="subdued">
        {message}
      </Text>
    </Banner>
  );
}
