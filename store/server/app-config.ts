import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/*
 * What the store needs from the app's shopify.app.toml: the scopes a managed install grants, and
 * the webhook subscriptions (topics, URIs, API version) deliveries follow. The TOML is read by a
 * small parser for the forms the file uses (tables, arrays of tables, strings, booleans, numbers,
 * arrays, dotted keys); the one TOML package in node_modules comes with Remix's dev tools only.
 */

export const DEFAULT_APP_CONFIG_PATH = fileURLToPath(
  new URL("../../shopify.app.toml", import.meta.url),
);

export interface WebhookSubscription {
  /** Topics and compliance topics together: both are delivered the same way. */
  topics: string[];
  /** Relative to the app's URL ("/webhooks/orders/create"), or absolute. */
  uri: string;
}

/** `[app_proxy]`: the storefront's `/<prefix>/<subpath>/*` goes to `url` + the rest. */
export interface AppProxyConfig {
  url: string;
  prefix: string;
  subpath: string;
}

export interface AppConfig {
  clientId: string;
  /** `handle`: the app's part of the admin's URL, `/admin/apps/<handle>` (the name if none). */
  handle: string;
  scopes: string[];
  /** `optional_scopes`: asked for by the app after the install, granted one by one. */
  optionalScopes: string[];
  webhookApiVersion: string;
  subscriptions: WebhookSubscription[];
  /** Absent when the toml has no `[app_proxy]`. */
  appProxy?: AppProxyConfig;
}

type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

class TomlSyntaxError extends Error {
  override name = "TomlSyntaxError";
}

function isTable(value: TomlValue | undefined): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A reader over the text, line-aware for error messages. */
class TomlReader {
  position = 0;
  constructor(readonly text: string) {}

  get line(): number {
    return this.text.slice(0, this.position).split("\n").length;
  }

  fail(message: string): never {
    throw new TomlSyntaxError(`line ${this.line}: ${message}`);
  }

  peek(): string {
    return this.text.charAt(this.position);
  }

  atEnd(): boolean {
    return this.position >= this.text.length;
  }

  /** Skips spaces and tabs (and, with `newlines`, line ends and comments too). */
  skipBlank(newlines: boolean): void {
    while (!this.atEnd()) {
      const character = this.peek();
      if (character === " " || character === "\t" || character === "\r") this.position += 1;
      else if (character === "#") {
        while (!this.atEnd() && this.peek() !== "\n") this.position += 1;
      } else if (newlines && character === "\n") this.position += 1;
      else return;
    }
  }

  expect(character: string): void {
    if (this.peek() !== character) this.fail(`expected "${character}"`);
    this.position += 1;
  }

  /** After a key/value or a header: only a comment may follow on the line. */
  endLine(): void {
    this.skipBlank(false);
    if (this.atEnd()) return;
    if (this.peek() !== "\n") this.fail(`unexpected "${this.peek()}"`);
    this.position += 1;
  }

  readKeyPart(): string {
    const character = this.peek();
    if (character === '"') return this.readBasicString();
    if (character === "'") return this.readLiteralString();
    const match = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.position));
    if (!match) this.fail("expected a key");
    this.position += match[0].length;
    return match[0];
  }

  readDottedKey(): string[] {
    const parts = [this.readKeyPart()];
    this.skipBlank(false);
    while (this.peek() === ".") {
      this.position += 1;
      this.skipBlank(false);
      parts.push(this.readKeyPart());
      this.skipBlank(false);
    }
    return parts;
  }

  readBasicString(): string {
    this.expect('"');
    let value = "";
    for (;;) {
      if (this.atEnd()) this.fail("unterminated string");
      if (this.peek() === '"') break;
      const character = this.peek();
      if (character === "\n") this.fail("unterminated string");
      if (character === "\\") {
        const escape = this.text.charAt(this.position + 1);
        const simple: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          n: "\n",
          t: "\t",
          r: "\r",
          b: "\b",
          f: "\f",
        };
        if (escape in simple) {
          value += simple[escape];
          this.position += 2;
        } else if (escape === "u" || escape === "U") {
          const length = escape === "u" ? 4 : 8;
          const hex = this.text.slice(this.position + 2, this.position + 2 + length);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) this.fail("bad unicode escape");
          value += String.fromCodePoint(parseInt(hex, 16));
          this.position += 2 + length;
        } else this.fail(`unknown escape "\\${escape}"`);
      } else {
        value += character;
        this.position += 1;
      }
    }
    this.expect('"');
    return value;
  }

  readLiteralString(): string {
    this.expect("'");
    const end = this.text.indexOf("'", this.position);
    if (end === -1 || this.text.slice(this.position, end).includes("\n"))
      this.fail("unterminated string");
    const value = this.text.slice(this.position, end);
    this.position = end + 1;
    return value;
  }

  readValue(): TomlValue {
    const character = this.peek();
    if (this.text.startsWith('"""', this.position) || this.text.startsWith("'''", this.position))
      this.fail("multi-line strings are not supported");
    if (character === '"') return this.readBasicString();
    if (character === "'") return this.readLiteralString();
    if (character === "[") return this.readArray();
    if (character === "{") return this.readInlineTable();
    const match = /^[^\s,\]}#]+/.exec(this.text.slice(this.position));
    if (!match) this.fail("expected a value");
    const token = match[0];
    this.position += token.length;
    if (token === "true") return true;
    if (token === "false") return false;
    if (/^[+-]?\d[\d_]*$/.test(token)) return Number(token.replaceAll("_", ""));
    if (/^[+-]?\d[\d_]*(\.\d[\d_]*)?([eE][+-]?\d+)?$/.test(token))
      return Number(token.replaceAll("_", ""));
    return this.fail(`unsupported value "${token}"`);
  }

  readArray(): TomlValue[] {
    this.expect("[");
    const values: TomlValue[] = [];
    for (;;) {
      this.skipBlank(true);
      if (this.peek() === "]") break;
      values.push(this.readValue());
      this.skipBlank(true);
      if (this.peek() === ",") this.position += 1;
      else if (this.peek() !== "]") this.fail('expected "," or "]" in an array');
    }
    this.expect("]");
    return values;
  }

  readInlineTable(): TomlTable {
    this.expect("{");
    const table: TomlTable = {};
    this.skipBlank(false);
    if (this.peek() === "}") {
      this.position += 1;
      return table;
    }
    for (;;) {
      this.skipBlank(false);
      const key = this.readDottedKey();
      this.expect("=");
      this.skipBlank(false);
      assign(table, key, this.readValue(), this);
      this.skipBlank(false);
      if (this.peek() === ",") this.position += 1;
      else break;
    }
    this.expect("}");
    return table;
  }
}

function descend(table: TomlTable, key: string, reader: TomlReader): TomlTable {
  const existing = table[key];
  if (existing === undefined) {
    const created: TomlTable = {};
    table[key] = created;
    return created;
  }
  if (isTable(existing)) return existing;
  // `[a.b]` after `[[a]]` continues the last table of the array, as TOML says.
  if (Array.isArray(existing)) {
    const last = existing.at(-1);
    if (isTable(last)) return last;
  }
  return reader.fail(`"${key}" is already a value, not a table`);
}

function assign(table: TomlTable, key: string[], value: TomlValue, reader: TomlReader): void {
  const parents = key.slice(0, -1);
  const name = key.at(-1) ?? reader.fail("empty key");
  let target = table;
  for (const part of parents) target = descend(target, part, reader);
  if (name in target) reader.fail(`"${key.join(".")}" is defined twice`);
  target[name] = value;
}

/** Parses the TOML subset shopify.app.toml uses; anything else fails with its line. */
export function parseToml(text: string): TomlTable {
  const root: TomlTable = {};
  const reader = new TomlReader(text);
  let current = root;
  for (;;) {
    reader.skipBlank(true);
    if (reader.atEnd()) return root;
    if (reader.peek() === "[") {
      const isArrayTable = reader.text.startsWith("[[", reader.position);
      reader.position += isArrayTable ? 2 : 1;
      reader.skipBlank(false);
      const key = reader.readDottedKey();
      reader.expect("]");
      if (isArrayTable) reader.expect("]");
      const parents = key.slice(0, -1);
      const name = key.at(-1) ?? reader.fail("empty table name");
      let parent = root;
      for (const part of parents) parent = descend(parent, part, reader);
      if (isArrayTable) {
        const existing = parent[name] ?? [];
        if (!Array.isArray(existing))
          return reader.fail(`"${key.join(".")}" is not an array of tables`);
        const table: TomlTable = {};
        existing.push(table);
        parent[name] = existing;
        current = table;
      } else {
        current = descend(parent, name, reader);
      }
      reader.endLine();
      continue;
    }
    const key = reader.readDottedKey();
    reader.expect("=");
    reader.skipBlank(false);
    assign(current, key, reader.readValue(), reader);
    reader.endLine();
  }
}

function stringList(value: TomlValue | undefined, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === "string"))
    throw new Error(`${field} must be an array of strings`);
  return value as string[];
}

function appProxyOf(table: TomlValue | undefined): AppProxyConfig | undefined {
  if (table === undefined) return undefined;
  if (!isTable(table)) throw new Error("app_proxy must be a table");
  const field = (name: "url" | "prefix" | "subpath") => {
    const value = table[name];
    if (typeof value !== "string" || value.trim() === "")
      throw new Error(`app_proxy.${name} is required`);
    return value.trim();
  };
  const url = field("url");
  if (!/^https?:\/\//.test(url)) throw new Error("app_proxy.url must be an http(s) URL");
  // Shopify's prefixes; the subpath is one path segment.
  const prefix = field("prefix");
  if (!["apps", "a", "community", "tools"].includes(prefix))
    throw new Error("app_proxy.prefix must be one of apps, a, community, tools");
  const subpath = field("subpath");
  if (!/^[A-Za-z0-9_-]+$/.test(subpath))
    throw new Error("app_proxy.subpath must be letters, digits, - or _");
  return { url, prefix, subpath };
}

/** The parts of shopify.app.toml the store uses; `source` names the file in error messages. */
export function appConfigFromToml(text: string, source = "shopify.app.toml"): AppConfig {
  let toml: TomlTable;
  try {
    toml = parseToml(text);
  } catch (error) {
    throw new Error(`Failed to read ${source}: ${(error as Error).message}`);
  }
  try {
    const scopesTable = toml.access_scopes;
    const scopesText = isTable(scopesTable) ? scopesTable.scopes : undefined;
    if (scopesText !== undefined && typeof scopesText !== "string")
      throw new Error("access_scopes.scopes must be a string");
    const optionalScopes = isTable(scopesTable) ? scopesTable.optional_scopes : undefined;
    const webhooks = toml.webhooks;
    if (webhooks !== undefined && !isTable(webhooks)) throw new Error("webhooks must be a table");
    const apiVersion = webhooks?.api_version;
    if (typeof apiVersion !== "string") throw new Error("webhooks.api_version is required");
    const rawSubscriptions = webhooks?.subscriptions ?? [];
    if (!Array.isArray(rawSubscriptions))
      throw new Error("webhooks.subscriptions must be an array of tables");
    const subscriptions = rawSubscriptions.map((entry, index) => {
      const field = `webhooks.subscriptions[${index}]`;
      if (!isTable(entry)) throw new Error(`${field} must be a table`);
      if (typeof entry.uri !== "string" || entry.uri === "")
        throw new Error(`${field}.uri is required`);
      const topics = [
        ...stringList(entry.topics, `${field}.topics`),
        ...stringList(entry.compliance_topics, `${field}.compliance_topics`),
      ];
      if (topics.length === 0) throw new Error(`${field} has no topics`);
      return { topics, uri: entry.uri };
    });
    const clientId = toml.client_id;
    const appProxy = appProxyOf(toml.app_proxy);
    const handle = typeof toml.handle === "string" ? toml.handle : toml.name;
    return {
      clientId: typeof clientId === "string" ? clientId : "",
      handle: typeof handle === "string" && handle !== "" ? handle : "app",
      scopes: (scopesText ?? "")
        .split(",")
        .map((scope) => scope.trim())
        .filter(Boolean),
      optionalScopes:
        optionalScopes === undefined
          ? []
          : stringList(optionalScopes, "access_scopes.optional_scopes"),
      webhookApiVersion: apiVersion,
      subscriptions,
      ...(appProxy ? { appProxy } : {}),
    };
  } catch (error) {
    throw new Error(`Failed to read ${source}: ${(error as Error).message}`);
  }
}

export function loadAppConfig(path = DEFAULT_APP_CONFIG_PATH): AppConfig {
  return appConfigFromToml(readFileSync(path, "utf8"), path);
}
