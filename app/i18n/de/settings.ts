import type en from "../en/settings";
import type { Translation } from "../types";

export default {} satisfies Translation<typeof en>;
