import { EmptySearchResult, EmptyState } from "@shopify/polaris";
import { useTranslate } from "../../i18n/react";

export function EmptyLog({ view }: { view: "events" | "webhooks" }) {
  const t = useTranslate();
  return (
    <EmptyState
      heading={t(`events.empty.${view}Heading`)}
      image="https://cdn.shopify.com/s/files/1/0262/4071/2726/files/emptystate-files.png"
    >
      <p>{t(`events.empty.${view}Body`)}</p>
    </EmptyState>
  );
}

export function NoMatch() {
  const t = useTranslate();
  return (
    <EmptySearchResult
      title={t("events.empty.noMatchHeading")}
      description={t("events.empty.noMatchBody")}
      withIllustration
    />
  );
}
