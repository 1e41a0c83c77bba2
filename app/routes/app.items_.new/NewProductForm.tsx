import { Form, useNavigate, useNavigation } from "@remix-run/react";
import {
  BlockStack,
  Button,
  Card,
  FormLayout,
  InlineStack,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import type { CreateProductActionData, FormMessage } from "../../admin/new-product.server";
import { useTranslate } from "../../i18n/react";
import type { Translate } from "../../i18n/translate";

export function messageText(message: FormMessage, t: Translate): string {
  return "text" in message ? message.text : t(message.key, message.values);
}

function fieldError(messages: FormMessage[] | undefined, t: Translate) {
  if (!messages || messages.length === 0) return undefined;
  return messages.map((message) => messageText(message, t)).join(" ");
}

type NewProductField = "title" | "prices" | "category";

/** The product's title, prices and category, with the errors of the last answer beside them. */
export function NewProductForm({
  invalid,
}: {
  invalid: Extract<CreateProductActionData, { status: "invalid" }> | undefined;
}) {
  const t = useTranslate();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [title, setTitle] = useState(() => t("items.new.defaultTitle"));
  const [category, setCategory] = useState("");
  const [prices, setPrices] = useState("");
  const submitting = navigation.state === "submitting" && navigation.formMethod === "POST";
  // What the three text fields share: their i18n keys, the posted name and the last errors.
  const field = (name: NewProductField, value: string, onChange: (value: string) => void) => ({
    label: t(`items.new.fields.${name}`),
    helpText: t(`items.new.fields.${name}Help`),
    name,
    value,
    onChange,
    autoComplete: "off",
    error: fieldError(invalid?.fieldErrors[name], t),
  });

  return (
    <Card>
      <Form method="post">
        <BlockStack gap="400">
          <Text as="p" tone="subdued">
            {t("items.new.explain")}
          </Text>
          <FormLayout>
            <TextField {...field("title", title, setTitle)} maxLength={255} requiredIndicator />
            <TextField
              {...field("prices", prices, setPrices)}
              multiline={3}
              requiredIndicator
              placeholder="19.99, 29.99, 59.99"
            />
            <TextField {...field("category", category, setCategory)} maxLength={255} />
          </FormLayout>
          <InlineStack gap="200" align="end">
            <Button onClick={() => navigate("/app/items")} disabled={submitting}>
              {t("items.new.cancel")}
            </Button>
            <Button variant="primary" submit loading={submitting}>
              {t("items.new.submit")}
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
    </Card>
  );
}
