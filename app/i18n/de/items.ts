import type en from "../en/items";
import type { Translation } from "../types";

export default {} satisfies Translation<typeof en>;
