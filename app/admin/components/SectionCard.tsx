import { BlockStack, Card, InlineStack, Text, type BlockStackProps } from "@shopify/polaris";
import type { ReactNode } from "react";

/** A card's heading with its line of help, kept close together as Polaris lays them out. */
export function CardHeading({
  title,
  help,
  headingAs = "h2",
  titleId,
}: {
  title: string;
  help?: string;
  headingAs?: "h2" | "h3";
  /** The heading's id, for a region it names (aria-labelledby). */
  titleId?: string;
}) {
  const heading = (
    <Text as={headingAs} variant="headingMd" id={titleId}>
      {title}
    </Text>
  );
  if (help === undefined) return heading;
  return (
    <BlockStack gap="100">
      {heading}
      <Text as="p" tone="subdued">
        {help}
      </Text>
    </BlockStack>
  );
}

/**
 * A card of an admin page: a heading, an optional line of help under it, an optional piece at
 * the heading's end (a badge, a link), then the card's content.
 */
export function SectionCard({
  title,
  help,
  aside,
  gap = "300",
  headingAs = "h2",
  titleId,
  children,
}: {
  title: string;
  help?: string;
  aside?: ReactNode;
  gap?: BlockStackProps["gap"];
  /** h3 where the card sits under a section of the page that has its own h2. */
  headingAs?: "h2" | "h3";
  titleId?: string;
  children?: ReactNode;
}) {
  const heading = <CardHeading title={title} help={help} headingAs={headingAs} titleId={titleId} />;
  return (
    <Card>
      <BlockStack gap={gap}>
        {aside === undefined ? (
          heading
        ) : (
          <InlineStack gap="200" align="space-between" blockAlign="center">
            {heading}
            {aside}
          </InlineStack>
        )}
        {children}
      </BlockStack>
    </Card>
  );
}
