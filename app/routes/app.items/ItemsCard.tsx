import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Text,
} from "@shopify/polaris";
import type { ItemRow } from "../../admin/items.server";
import { CardHeading } from "../../admin/components/SectionCard";
import { useLocale, useTranslate } from "../../i18n/react";
import type { Translate } from "../../i18n/translate";
import { formatMinorUnits } from "../../lib/money";

function formatPrice(item: ItemRow, locale: string, t: Translate): string {
  if (item.priceAmount === null || !item.currency) return t("items.table.dynamicPrice");
  const amount = formatMinorUnits(item.priceAmount, item.currency);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: item.currency }).format(
      Number(amount),
    );
  } catch {
    return `${amount} ${item.currency}`;
  }
}

/** Whether an item's product (one the app created) is on the Online Store; nothing until known. */
function OnlineStoreBadge({ published }: { published: boolean | undefined }) {
  const t = useTranslate();
  if (published === undefined) return null;
  return published ? (
    <Badge tone="success">{t("items.onlineStore.published")}</Badge>
  ) : (
    <Badge tone="warning">{t("items.onlineStore.notPublished")}</Badge>
  );
}

/** The shop's protection items, each with its Online Store state once known, or a first step. */
export function ItemsCard({
  items,
  publishedOf,
  removingId,
  onCreate,
  onRemove,
}: {
  items: ItemRow[];
  publishedOf: (productId: string) => boolean | undefined;
  /** The item whose removal is under way. */
  removingId: string | null;
  onCreate: () => void;
  onRemove: (itemId: string) => void;
}) {
  const t = useTranslate();
  const locale = useLocale();
  return (
    <Card padding="0">
      {items.length === 0 ? (
        <EmptyState
          heading={t("items.empty.heading")}
          action={{ content: t("items.actions.create"), onAction: onCreate }}
          image="https://cdn.shopify.com/s/files/1/0262/4071/2726/files/emptystate-files.png"
        >
          <p>{t("items.empty.body")}</p>
        </EmptyState>
      ) : (
        <BlockStack>
          <Box padding="400" paddingBlockEnd="200">
            <CardHeading title={t("items.table.heading")} help={t("items.table.description")} />
          </Box>
          <IndexTable
            resourceName={{
              singular: t("items.table.resourceSingular"),
              plural: t("items.table.resourcePlural"),
            }}
            itemCount={items.length}
            selectable={false}
            headings={[
              { title: t("items.table.variantId") },
              { title: t("items.table.title") },
              { title: t("items.table.price"), alignment: "end" },
              { title: t("items.table.category") },
              { title: t("items.table.strategy") },
              { title: t("items.table.actions"), hidden: true },
            ]}
          >
            {items.map((item, index) => (
              <IndexTable.Row id={item.id} key={item.id} position={index}>
                <IndexTable.Cell>
                  <Text as="span" fontWeight="semibold">
                    <code>{item.variantId}</code>
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="span">{item.title}</Text>
                    {item.createdByApp ? <Badge>{t("items.table.createdByApp")}</Badge> : null}
                    <OnlineStoreBadge published={publishedOf(item.productId)} />
                  </InlineStack>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" alignment="end" numeric>
                    {formatPrice(item, locale, t)}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>{item.category ?? "—"}</IndexTable.Cell>
                <IndexTable.Cell>{t(`items.strategies.${item.strategy}`)}</IndexTable.Cell>
                <IndexTable.Cell>
                  <Button
                    variant="plain"
                    tone="critical"
                    loading={removingId === item.id}
                    accessibilityLabel={t("items.table.removeLabel", { title: item.title })}
                    onClick={() => onRemove(item.id)}
                  >
                    {t("items.table.remove")}
                  </Button>
                </IndexTable.Cell>
              </IndexTable.Row>
            ))}
          </IndexTable>
        </BlockStack>
      )}
    </Card>
  );
}
