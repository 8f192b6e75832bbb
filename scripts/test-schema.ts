#!/usr/bin/env bun
/**
 * Writes schema/tui-test.schema.json from the loader's schema (src/cli/test-schema.ts).
 *   bun scripts/test-schema.ts          rewrite it
 *   bun scripts/test-schema.ts --check  exit 1 when it is out of date
 */
import { join } from "node:path";
import { testFileJsonSchema } from "../src/cli/test-schema.ts";

export const SCHEMA_FILE = join(import.meta.dir, "..", "schema", "tui-test.schema.json");
const text = `${JSON.stringify(testFileJsonSchema(), null, 2)}\n`;
if (process.argv.includes("--check")) {
  const current = await Bun.file(SCHEMA_FILE)
    .text()
    .catch(() => "");
  if (current !== text) {
    process.stderr.write("schema/tui-test.schema.json is out of date: run bun scripts/test-schema.ts\n");
    process.exit(1);
  }
} else await Bun.write(SCHEMA_FILE, text);
