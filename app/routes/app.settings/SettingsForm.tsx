import { useNavigation, useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  Form,
  FormLayout,
  InlineStack,
  Layout,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { MAX_HEADING_LENGTH, type OfferLayout } from "../../offers/offer-option-values";
import type { SettingsActionData } from "../../admin/settings-form";
import { useTranslate } from "../../i18n/react";
import type { ShopSettings } from "../../models/ShopSettings.server";

/** The shop's order and offer settings, saved together. */
export function SettingsForm({
  settings,
  actionData,
}: {
  settings: ShopSettings;
  actionData: SettingsActionData | undefined;
}) {
  const t = useTranslate();
  const submit = useSubmit();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";

  const [reportOrdersWithoutPlan, setReportOrdersWithoutPlan] = useState(
    settings.reportOrdersWithoutPlan,
  );
  const [autoRefundPlans, setAutoRefundPlans] = useState(settings.autoRefundPlans);
  const [heading, setHeading] = useState(settings.offerOptions.heading ?? "");
  const [showInsuranceLink, setShowInsuranceLink] = useState(
    settings.offerOptions.showInsuranceLink,
  );
  const [layout, setLayout] = useState<OfferLayout>(settings.offerOptions.layout);
  const errors = actionData && !actionData.ok ? actionData.errors : {};

  const save = () =>
    submit(
      {
        reportOrdersWithoutPlan: String(reportOrdersWithoutPlan),
        autoRefundPlans: String(autoRefundPlans),
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
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("settings.orders.title")}
                </Text>
                <Checkbox
                  label={t("settings.orders.reportOrdersWithoutPlan")}
                  helpText={t("settings.orders.reportOrdersWithoutPlanHelp")}
                  checked={reportOrdersWithoutPlan}
                  onChange={setReportOrdersWithoutPlan}
                />
                <Checkbox
                  label={t("settings.orders.autoRefundPlans")}
                  helpText={t("settings.orders.autoRefundPlansHelp")}
                  checked={autoRefundPlans}
                  onChange={setAutoRefundPlans}
                />
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <BlockStack gap="100">
                  <Text as="h2" variant="headingMd">
                    {t("settings.offer.title")}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t("settings.offer.help")}
                  </Text>
                </BlockStack>
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
                    label={t("settings.offer.showInsuranceLink")}
                    helpText={t("settings.offer.showInsuranceLinkHelp")}
                    checked={showInsuranceLink}
                    onChange={setShowInsuranceLink}
                  />
                  <ChoiceList
                    title={t("settings.offer.layout")}
                    choices={[
                      { label: t("settings.offer.layoutList"), value: "list" },
                      { label: t("settings.offer.layoutCompact"), value: "compact" },
                    ]}
                    selected={[layout]}
                    onChange={(selected) =>
                      setLayout(selected[0] === "compact" ? "compact" : "list")
                    }
                    error={errors.layout ? t(errors.layout) : undefined}
                  />
                </FormLayout>
              </BlockStack>
            </Card>
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
