import type en from "../en/events";
import type { Translation } from "../types";

export default {} satisfies Translation<typeof en>;
