import { getEnv } from "../env.server";
import { createSecretBox, type SecretBox } from "./secret-box.server";

let box: SecretBox | undefined;

/** The app's secret box, keyed by SVC_ENCRYPTION_KEY (and SVC_ENCRYPTION_KEY_PREVIOUS). */
export function getSecretBox(): SecretBox {
  const env = getEnv();
  const previous = env.SVC_ENCRYPTION_KEY_PREVIOUS;
  box ??= createSecretBox(previous ? [env.SVC_ENCRYPTION_KEY, previous] : [env.SVC_ENCRYPTION_KEY]);
  return box;
}
