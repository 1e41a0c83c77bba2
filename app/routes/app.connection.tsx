import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  Form,
  FormLayout,
  InlineStack,
  Layout,
  Modal,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import type { GoLiveChecklist } from "../admin/checklist";
import { applyConnectionForm, loadConnectionPage } from "../admin/connection.server";
import { parseConnectionForm, type ConnectionActionData } from "../admin/connection-form";
import prisma from "../db.server";
import { useLocale, useTranslate } from "../i18n/react";
import type { Translate } from "../i18n/translate";
import { logger } from "../logger.server";
import type { AdminConnection } from "../models/ShopConnection.server";
import type { ApiVersion, Environment } from "../protection/types";
import { authenticate } from "../shopify.server";
import { PageErrorBoundary } from "../admin/PageErrorBoundary";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return loadConnectionPage(prisma, session.shop);
};

export const action = async ({ request }: ActionFunctionArgs): Promise<ConnectionActionData> => {
  const { session } = await authenticate.admin(request);
  const parsed = parseConnectionForm(Object.fromEntries(await request.formData()));
  if (!parsed.ok) return parsed.answer;
  const log = logger.child({ route: "app.connection", shop: session.shop });
  return applyConnectionForm(prisma, session.shop, parsed.form, log);
};

function useSubmitting(intent: string, environment?: Environment): boolean {
  const navigation = useNavigation();
  const formData = navigation.formData;
  return (
    navigation.state === "submitting" &&
    formData?.get("intent") === intent &&
    (environment === undefined || formData.get("environment") === environment)
  );
}

function useDateFormat() {
  const locale = useLocale();
  return (iso: string) =>
    // UTC, so that the server's render and the browser's agree.
    new Intl.DateTimeFormat(locale, {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "UTC",
      timeZoneName: "short",
    }).format(new Date(iso));
}

function keyNameOf(t: Translate, environment: Environment) {
  return t(`connection.keyNames.${environment}`);
}

export default function ConnectionPage() {
  const { connection, waitingEvents, checklist } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useTranslate();
  const hasAnyKey = Boolean(connection?.sandboxSecretKeyLast4 || connection?.liveSecretKeyLast4);

  return (
    <Page title={t("connection.title")}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <ActionNotice actionData={actionData} />
            <PauseBanner connection={connection} waitingEvents={waitingEvents} />
            {hasAnyKey ? (
              <SummaryCard connection={connection} />
            ) : (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {t("connection.empty.heading")}
                  </Text>
                  <Text as="p">{t("connection.empty.body")}</Text>
                </BlockStack>
              </Card>
            )}
            <KeyCard environment="sandbox" connection={connection} actionData={actionData} />
            <KeyCard environment="production" connection={connection} actionData={actionData} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <EnvironmentCard connection={connection} checklist={checklist} />
            <ApiVersionCard connection={connection} actionData={actionData} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function ActionNotice({ actionData }: { actionData: ConnectionActionData | undefined }) {
  const t = useTranslate();
  if (!actionData) return null;
  if (actionData.ok) return <Banner tone="success">{t(actionData.notice)}</Banner>;
  const formError = actionData.errors.form ?? actionData.errors.confirm;
  return formError ? <Banner tone="critical">{t(formError)}</Banner> : null;
}

/** A rejected or missing key pauses delivery: say so at once, with what waits. */
function PauseBanner({
  connection,
  waitingEvents,
}: {
  connection: AdminConnection | null;
  waitingEvents: number;
}) {
  const t = useTranslate();
  if (!connection) return null;
  const environment = connection.environment;
  if (connection.status === "key_rejected") {
    return (
      <Banner tone="critical" title={t("connection.banners.keyRejectedTitle")}>
        <Text as="p">{t("connection.banners.keyRejectedBody", { count: waitingEvents })}</Text>
      </Banner>
    );
  }
  if (connection.status === "secret_unreadable") {
    return (
      <Banner tone="critical" title={t("connection.banners.secretUnreadableTitle")}>
        <Text as="p">{t("connection.banners.secretUnreadableBody", { count: waitingEvents })}</Text>
      </Banner>
    );
  }
  const currentKey =
    environment === "production" ? connection.liveSecretKeyLast4 : connection.sandboxSecretKeyLast4;
  const hasAnyKey = Boolean(connection.sandboxSecretKeyLast4 || connection.liveSecretKeyLast4);
  if (connection.status === "uninstalled" || currentKey || (!hasAnyKey && waitingEvents === 0)) {
    return null;
  }
  return (
    <Banner
      tone="warning"
      title={t("connection.banners.keyMissingTitle", { keyName: keyNameOf(t, environment) })}
    >
      <Text as="p">
        {t("connection.banners.keyMissingBody", {
          count: waitingEvents,
          environment: t(`common.environment.${environment}`),
        })}
      </Text>
    </Banner>
  );
}

const STATUS_TONE = {
  connected: "success",
  key_rejected: "critical",
  secret_unreadable: "critical",
  not_connected: "attention",
  uninstalled: "critical",
} as const;

function SummaryCard({ connection }: { connection: AdminConnection | null }) {
  const t = useTranslate();
  const formatDate = useDateFormat();
  if (!connection) return null;
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {t("connection.summary.title")}
        </Text>
        <InlineStack gap="200" blockAlign="center">
          <Badge tone={STATUS_TONE[connection.status]}>
            {t(`common.status.${connection.status}`)}
          </Badge>
          <Badge tone={connection.environment === "production" ? "success" : "info"}>
            {t(`common.environment.${connection.environment}`)}
          </Badge>
          <Text as="span" tone="subdued">
            {t("connection.summary.apiVersion")} {connection.apiVersion}
          </Text>
        </InlineStack>
        {connection.liveSince && connection.environment === "production" ? (
          <Text as="p" tone="subdued">
            {t("connection.summary.liveSince", { date: formatDate(connection.liveSince) })}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}

function KeyCard({
  environment,
  connection,
  actionData,
}: {
  environment: Environment;
  connection: AdminConnection | null;
  actionData: ConnectionActionData | undefined;
}) {
  const isLive = environment === "production";
  const last4 = isLive ? connection?.liveSecretKeyLast4 : connection?.sandboxSecretKeyLast4;
  const publishable =
    (isLive ? connection?.livePublishableKey : connection?.sandboxPublishableKey) ?? "";
  // A new key or publishable key re-mounts the form: the secret field empties after a save.
  return (
    <KeyForm
      key={`${environment}:${last4 ?? ""}:${publishable}`}
      environment={environment}
      connection={connection}
      savedPublishableKey={publishable}
      actionData={actionData}
    />
  );
}

function KeyForm({
  environment,
  connection,
  savedPublishableKey,
  actionData,
}: {
  environment: Environment;
  connection: AdminConnection | null;
  savedPublishableKey: string;
  actionData: ConnectionActionData | undefined;
}) {
  const t = useTranslate();
  const formatDate = useDateFormat();
  const submit = useSubmit();
  const [secretKey, setSecretKey] = useState("");
  const [publishableKey, setPublishableKey] = useState(savedPublishableKey);
  const [removing, setRemoving] = useState(false);
  const saving = useSubmitting("save_keys", environment);
  const removingNow = useSubmitting("remove_key", environment);
  const isLive = environment === "production";
  const last4 = isLive ? connection?.liveSecretKeyLast4 : connection?.sandboxSecretKeyLast4;
  const verifiedAt = isLive ? connection?.liveKeyVerifiedAt : connection?.sandboxKeyVerifiedAt;
  const keyName = keyNameOf(t, environment);
  const errors =
    actionData && !actionData.ok && actionData.environment === environment ? actionData.errors : {};
  const errorText = (key: string | undefined) => (key ? t(key, { keyName }) : undefined);

  return (
    <Card>
      <Form
        onSubmit={() =>
          submit(
            { intent: "save_keys", environment, secretKey, publishableKey },
            { method: "post" },
          )
        }
      >
        <BlockStack gap="300">
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd">
              {t(isLive ? "connection.keys.liveTitle" : "connection.keys.sandboxTitle")}
            </Text>
            <Text as="p" tone="subdued">
              {t(isLive ? "connection.keys.liveHelp" : "connection.keys.sandboxHelp")}
            </Text>
          </BlockStack>
          <InlineStack gap="200" blockAlign="center">
            {last4 ? (
              <>
                <Text as="span">{t("connection.keys.saved", { last4 })}</Text>
                <Badge tone={verifiedAt ? "success" : "attention"}>
                  {verifiedAt
                    ? t("connection.keys.verifiedAt", { date: formatDate(verifiedAt) })
                    : t("connection.keys.notVerified")}
                </Badge>
              </>
            ) : (
              <Text as="span" tone="subdued">
                {t("connection.keys.none")}
              </Text>
            )}
          </InlineStack>
          <FormLayout>
            <TextField
              label={t("connection.keys.secretKey")}
              type="password"
              autoComplete="off"
              name="secretKey"
              value={secretKey}
              onChange={setSecretKey}
              placeholder={last4 ? t("connection.keys.secretKeyReplace") : undefined}
              helpText={t("connection.keys.secretKeyHelp")}
              error={errorText(errors.secretKey)}
            />
            <TextField
              label={t("connection.keys.publishableKey")}
              autoComplete="off"
              name="publishableKey"
              value={publishableKey}
              onChange={setPublishableKey}
              helpText={t("connection.keys.publishableKeyHelp")}
              error={errorText(errors.publishableKey)}
            />
          </FormLayout>
          <InlineStack gap="200" align="end">
            {last4 ? (
              <Button tone="critical" variant="plain" onClick={() => setRemoving(true)}>
                {t("connection.keys.remove")}
              </Button>
            ) : null}
            <Button submit variant="primary" loading={saving}>
              {t("connection.keys.save")}
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
      <ConfirmModal
        open={removing}
        title={t("connection.keys.removeTitle", { keyName })}
        body={t("connection.keys.removeBody")}
        confirmLabel={t("connection.keys.remove")}
        destructive
        loading={removingNow}
        onClose={() => setRemoving(false)}
        onConfirm={() => {
          submit({ intent: "remove_key", environment }, { method: "post" });
          setRemoving(false);
        }}
      />
    </Card>
  );
}

function ApiVersionCard({
  connection,
  actionData,
}: {
  connection: AdminConnection | null;
  actionData: ConnectionActionData | undefined;
}) {
  const t = useTranslate();
  const submit = useSubmit();
  const [apiVersion, setApiVersion] = useState<string>(connection?.apiVersion ?? "v2.0");
  const saving = useSubmitting("set_api_version");
  const error =
    actionData && !actionData.ok && actionData.intent === "set_api_version"
      ? actionData.errors.apiVersion
      : undefined;
  const options: { label: string; value: ApiVersion }[] = [
    { label: t("connection.apiVersion.current"), value: "v2.0" },
    { label: t("connection.apiVersion.earliest"), value: "v1.1" },
  ];
  return (
    <Card>
      <Form onSubmit={() => submit({ intent: "set_api_version", apiVersion }, { method: "post" })}>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {t("connection.apiVersion.title")}
          </Text>
          <Select
            label={t("connection.apiVersion.label")}
            name="apiVersion"
            options={options}
            value={apiVersion}
            onChange={setApiVersion}
            helpText={t("connection.apiVersion.help")}
            error={error ? t(error) : undefined}
          />
          <InlineStack align="end">
            <Button submit loading={saving}>
              {t("connection.apiVersion.save")}
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
    </Card>
  );
}

/** The steps the go-live switch waits for, with the live key the checklist also requires. */
function goLiveSteps(connection: AdminConnection | null, checklist: GoLiveChecklist) {
  const steps = checklist.steps
    .filter((step) => step.id !== "live")
    .map((step) => ({ id: step.id as string, done: step.done }));
  return [...steps, { id: "live_key", done: Boolean(connection?.liveKeyVerifiedAt) }];
}

const KNOWN_STEPS = new Set([
  "sandbox_key",
  "protection_items",
  "app_embed",
  "offer_block",
  "test_order",
  "sandbox_events",
  "live_key",
]);

function EnvironmentCard({
  connection,
  checklist,
}: {
  connection: AdminConnection | null;
  checklist: GoLiveChecklist;
}) {
  const t = useTranslate();
  const submit = useSubmit();
  const [confirming, setConfirming] = useState(false);
  const isLive = connection?.environment === "production";
  const target: Environment = isLive ? "sandbox" : "production";
  const switching = useSubmitting("switch_environment");
  const steps = goLiveSteps(connection, checklist);

  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("connection.environment.title")}
          </Text>
          <Badge tone={isLive ? "success" : "info"}>
            {t(`common.environment.${isLive ? "production" : "sandbox"}`)}
          </Badge>
        </InlineStack>
        <Text as="p">
          {t(isLive ? "connection.environment.inProduction" : "connection.environment.inSandbox")}
        </Text>
        {isLive ? null : (
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t("connection.environment.checklistTitle")}
            </Text>
            <Text as="p" tone="subdued">
              {t(
                checklist.readyToGoLive
                  ? "connection.environment.ready"
                  : "connection.environment.notReady",
              )}
            </Text>
            <BlockStack gap="100" as="ul">
              {steps.map((step) => (
                <Box as="li" key={step.id}>
                  <InlineStack gap="200" blockAlign="center" wrap={false}>
                    <span style={{ flexShrink: 0, whiteSpace: "nowrap" }}>
                      <Badge tone={step.done ? "success" : undefined}>
                        {t(
                          step.done ? "connection.environment.done" : "connection.environment.toDo",
                        )}
                      </Badge>
                    </span>
                    <Text as="span">
                      {t(
                        KNOWN_STEPS.has(step.id)
                          ? `connection.environment.steps.${step.id}`
                          : "connection.environment.steps.other",
                      )}
                    </Text>
                  </InlineStack>
                </Box>
              ))}
            </BlockStack>
          </BlockStack>
        )}
        <InlineStack align="end">
          <Button
            variant={isLive ? "secondary" : "primary"}
            disabled={!isLive && !checklist.readyToGoLive}
            loading={switching}
            onClick={() => setConfirming(true)}
          >
            {t(isLive ? "connection.environment.backToSandbox" : "connection.environment.goLive")}
          </Button>
        </InlineStack>
      </BlockStack>
      <ConfirmModal
        open={confirming}
        title={t(
          isLive ? "connection.environment.backTitle" : "connection.environment.goLiveTitle",
        )}
        body={t(isLive ? "connection.environment.backBody" : "connection.environment.goLiveBody")}
        checkboxLabel={t(
          isLive ? "connection.environment.backConfirm" : "connection.environment.goLiveConfirm",
        )}
        confirmLabel={t(
          isLive ? "connection.environment.backToSandbox" : "connection.environment.goLive",
        )}
        loading={switching}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          submit(
            { intent: "switch_environment", environment: target, confirm: "true" },
            { method: "post" },
          );
          setConfirming(false);
        }}
      />
    </Card>
  );
}

/** A confirmation: with `checkboxLabel`, the confirm button waits for the box to be ticked. */
function ConfirmModal(props: {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  checkboxLabel?: string;
  destructive?: boolean;
  loading: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const t = useTranslate();
  const [checked, setChecked] = useState(false);
  const close = () => {
    setChecked(false);
    props.onClose();
  };
  return (
    <Modal
      open={props.open}
      onClose={close}
      title={props.title}
      primaryAction={{
        content: props.confirmLabel,
        destructive: props.destructive,
        disabled: props.checkboxLabel !== undefined && !checked,
        loading: props.loading,
        onAction: () => {
          setChecked(false);
          props.onConfirm();
        },
      }}
      secondaryActions={[{ content: t("connection.environment.cancel"), onAction: close }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          <Text as="p">{props.body}</Text>
          {props.checkboxLabel ? (
            <Checkbox label={props.checkboxLabel} checked={checked} onChange={setChecked} />
          ) : null}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

export function ErrorBoundary() {
  return <PageErrorBoundary titleKey="connection.title" />;
}
