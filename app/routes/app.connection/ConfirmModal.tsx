import { BlockStack, Checkbox, Modal, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslate } from "../../i18n/react";

/** A confirmation: with `checkboxLabel`, the confirm button waits for the box to be ticked. */
export function ConfirmModal(props: {
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
