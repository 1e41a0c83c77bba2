import { useNavigation, useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Checkbox,
  ChoiceList,
  Form,
  FormLayout,
  InlineStack,
  Layout,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { MAX_HEADING_LENGTH, type OfferLayout } from "../../offers/offer-option-values";
import { GRANT_FULFILMENT_SCOPE, type SettingsActionData } from "../../admin/settings-form";
import { SectionCard } from "../../admin/components/SectionCard";
import { useTranslate } from "../../i18n/react";
import type { ShopSettings } from "../../models/ShopSettings.server";

type FlagKey =
  | "settings.orders.reportOrdersWithoutPlan"
  | "settings.orders.autoRefundPlans"
  | "settings.orders.autoEditPlans"
  | "settings.orders.autoFulfilPlans"
  | "settings.orders.selfServiceLink"
  | "settings.offer.showInsuranceLink";

/** The shop's order and offer settings, saved together. */
export function SettingsForm({
  settings,
  actionData,
  fulfilmentScopeMissing,
}: {
  settings: ShopSettings;
  actionData: SettingsActionData | undefined;
  /** Plan fulfilment is on, but Shopify has not granted its scope. */
  fulfilmentScopeMissing: boolean;
}) {
  const t = useTranslate();
  const submit = useSubmit();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";

  const [reportOrdersWithoutPlan, setReportOrdersWithoutPlan] = useState(
    settings.reportOrdersWithoutPlan,
  );
  const [autoRefundPlans, setAutoRefundPlans] = useState(settings.autoRefundPlans);
  const [autoEditPlans, setAutoEditPlans] = useState(settings.autoEditPlans);
  const [autoFulfilPlans, setAutoFulfilPlans] = useState(settings.autoFulfilPlans);
  const [selfServiceLink, setSelfServiceLink] = useState(settings.selfServiceLink);
  const [heading, setHeading] = useState(settings.offerOptions.heading ?? "");
  const [showInsuranceLink, setShowInsuranceLink] = useState(
    settings.offerOptions.showInsuranceLink,
  );
  const [layout, setLayout] = useState<OfferLayout>(settings.offerOptions.layout);
  const errors = actionData && !actionData.ok ? actionData.errors : {};

  // A setting's checkbox: its label and help share an i18n key.
  const flag = (key: FlagKey, checked: boolean, onChange: (checked: boolean) => void) => ({
    label: t(key),
    helpText: t(`${key}Help`),
    checked,
    onChange,
  });

  const save = () =>
    submit(
      {
        reportOrdersWithoutPlan: String(reportOrdersWithoutPlan),
        autoRefundPlans: String(autoRefundPlans),
        autoEditPlans: String(autoEditPlans),
        autoFulfilPlans: String(autoFulfilPlans),
        selfServiceLink: String(selfServiceLink),
        heading,
        showInsuranceLink: String(showInsuranceLink),
        layout,
      },
      { method: "post" },
    );

  return (
    <Form onSubmit={save}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {actionData?.ok ? <Banner tone="success">{t(actionData.notice)}</Banner> : null}
            {errors.form ? <Banner tone="critical">{t(errors.form)}</Banner> : null}
            {fulfilmentScopeMissing ? (
              <Banner
                tone="warning"
                title={t("settings.fulfilmentScope.title")}
                action={{
                  content: t("settings.fulfilmentScope.grant"),
                  onAction: () => submit({ intent: GRANT_FULFILMENT_SCOPE }, { method: "post" }),
                }}
              >
                {t("settings.fulfilmentScope.body")}
              </Banner>
            ) : null}
            <SectionCard title={t("settings.orders.title")}>
              <Checkbox
                {...flag(
                  "settings.orders.reportOrdersWithoutPlan",
                  reportOrdersWithoutPlan,
                  setReportOrdersWithoutPlan,
                )}
              />
              <Checkbox
                {...flag("settings.orders.selfServiceLink", selfServiceLink, setSelfServiceLink)}
              />
              <Checkbox
                {...flag("settings.orders.autoRefundPlans", autoRefundPlans, setAutoRefundPlans)}
              />
              <Checkbox
                {...flag("settings.orders.autoEditPlans", autoEditPlans, setAutoEditPlans)}
              />
              <Checkbox
                {...flag("settings.orders.autoFulfilPlans", autoFulfilPlans, setAutoFulfilPlans)}
              />
            </SectionCard>
            <SectionCard title={t("settings.offer.title")} help={t("settings.offer.help")}>
              <FormLayout>
                <TextField
                  label={t("settings.offer.heading")}
                  autoComplete="off"
                  value={heading}
                  onChange={setHeading}
                  maxLength={MAX_HEADING_LENGTH}
                  showCharacterCount
                  helpText={t("settings.offer.headingHelp", { max: MAX_HEADING_LENGTH })}
                  error={errors.heading ? t(errors.heading) : undefined}
                />
                <Checkbox
                  {...flag(
                    "settings.offer.showInsuranceLink",
                    showInsuranceLink,
                    setShowInsuranceLink,
                  )}
                />
                <ChoiceList
                  title={t("settings.offer.layout")}
                  choices={[
                    { label: t("settings.offer.layoutList"), value: "list" },
                    { label: t("settings.offer.layoutCompact"), value: "compact" },
                  ]}
                  selected={[layout]}
                  onChange={(selected) => setLayout(selected[0] === "compact" ? "compact" : "list")}
                  error={errors.layout ? t(errors.layout) : undefined}
                />
              </FormLayout>
            </SectionCard>
            <InlineStack align="end">
              <Button submit variant="primary" loading={saving}>
                {t("settings.save")}
              </Button>
            </InlineStack>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Form>
  );
}
