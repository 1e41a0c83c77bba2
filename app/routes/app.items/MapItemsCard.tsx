import { useAppBridge } from "@shopify/app-bridge-react";
import { Button, InlineStack, Select, TextField } from "@shopify/polaris";
import { useState } from "react";
import { SectionCard } from "../../admin/components/SectionCard";
import { useTranslate } from "../../i18n/react";
import type { MessageKey } from "../../i18n/translate";
import { MAPPING_STRATEGIES, type MappingStrategy } from "../../protection-items/strategies";

/** Maps products or variants the merchant picks in Shopify's resource picker. */
export function MapItemsCard({
  busy,
  mapping,
  categoryError,
  onMap,
}: {
  busy: boolean;
  mapping: boolean;
  /** The i18n key of the category field's error, from the last answer. */
  categoryError: MessageKey | undefined;
  onMap: (form: FormData) => void;
}) {
  const t = useTranslate();
  const shopify = useAppBridge();
  const [strategy, setStrategy] = useState<MappingStrategy>("one_to_one");
  const [category, setCategory] = useState("");

  async function pick(type: "variant" | "product") {
    const ids: string[] = [];
    if (type === "variant") {
      const selection = await shopify.resourcePicker({ type: "variant", multiple: true });
      for (const variant of selection ?? []) ids.push(variant.id);
    } else {
      const selection = await shopify.resourcePicker({ type: "product", multiple: true });
      for (const product of selection ?? []) {
        // The merchant may leave some of a product's variants out of the pick.
        const picked = (product.variants ?? []).flatMap((variant) =>
          variant.id ? [variant.id] : [],
        );
        ids.push(...(picked.length > 0 ? picked : [product.id]));
      }
    }
    if (ids.length === 0) return;
    const form = new FormData();
    form.set("intent", "map");
    form.set("strategy", strategy);
    form.set("category", category);
    for (const id of ids) form.append("id", id);
    onMap(form);
  }

  const strategyOptions = MAPPING_STRATEGIES.map((value) => ({
    value,
    label: t(`items.strategies.${value}`),
  }));

  return (
    <SectionCard title={t("items.map.heading")} help={t("items.map.description")}>
      <InlineStack gap="400" wrap>
        <Select
          label={t("items.map.strategy")}
          options={strategyOptions}
          value={strategy}
          onChange={(value) => setStrategy(value as MappingStrategy)}
          helpText={t(`items.map.strategyHelp.${strategy}`)}
        />
        <TextField
          label={t("items.map.category")}
          value={category}
          onChange={setCategory}
          autoComplete="off"
          maxLength={255}
          helpText={t("items.map.categoryHelp")}
          error={categoryError ? t(categoryError) : undefined}
        />
      </InlineStack>
      <InlineStack gap="200">
        <Button onClick={() => pick("variant")} loading={mapping} disabled={busy}>
          {t("items.map.pickVariants")}
        </Button>
        <Button onClick={() => pick("product")} disabled={busy}>
          {t("items.map.pickProducts")}
        </Button>
      </InlineStack>
    </SectionCard>
  );
}
