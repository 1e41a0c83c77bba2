import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import prisma from "../db.server";
import { getShopConnection, toPublicConnection } from "../models/ShopConnection.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const record = await getShopConnection(prisma, session.shop);
  return { shop: session.shop, connection: record ? toPublicConnection(record) : null };
};

const STATUS_TONE = {
  connected: "success",
  key_rejected: "critical",
  not_connected: "attention",
  uninstalled: "critical",
} as const;

export default function Home() {
  const { shop, connection } = useLoaderData<typeof loader>();
  const status = connection?.status ?? "not_connected";
  return (
    <Page title="Product protection">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Connection
                </Text>
                <Badge tone={STATUS_TONE[status]}>{status.replace("_", " ")}</Badge>
              </InlineStack>
              <Text as="p">
                {shop} · {connection?.environment ?? "sandbox"} · API{" "}
                {connection?.apiVersion ?? "v2.0"}
              </Text>
              <Text as="p" tone="subdued">
                Sandbox key:{" "}
                {connection?.sandboxSecretKeyLast4
                  ? `•••• ${connection.sandboxSecretKeyLast4}`
                  : "not set"}
                {" · "}Live key:{" "}
                {connection?.liveSecretKeyLast4
                  ? `•••• ${connection.liveSecretKeyLast4}`
                  : "not set"}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
