import type en from "../en/connection";
import type { Translation } from "../types";

export default {} satisfies Translation<typeof en>;
