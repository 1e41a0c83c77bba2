import { getEnv, type AppEnv } from "../env.server";
import { createSecretBox, type SecretBox } from "./secret-box.server";

let box: SecretBox | undefined;

type EncryptionKeys = Pick<
  AppEnv,
  "SVC_ENCRYPTION_KEY" | "SVC_ENCRYPTION_KEYS_PREVIOUS" | "SVC_ENCRYPTION_KEY_PREVIOUS"
>;

/** The current key first (it seals), then every earlier key that may still open a value. */
export function encryptionKeysOf(env: EncryptionKeys): Buffer[] {
  const previous = [...env.SVC_ENCRYPTION_KEYS_PREVIOUS];
  if (env.SVC_ENCRYPTION_KEY_PREVIOUS) previous.push(env.SVC_ENCRYPTION_KEY_PREVIOUS);
  return [env.SVC_ENCRYPTION_KEY, ...previous];
}

/**
 * The app's secret box: SVC_ENCRYPTION_KEY seals; it, SVC_ENCRYPTION_KEYS_PREVIOUS and
 * SVC_ENCRYPTION_KEY_PREVIOUS open (decision 017).
 */
export function getSecretBox(): SecretBox {
  box ??= createSecretBox(encryptionKeysOf(getEnv()));
  return box;
}
