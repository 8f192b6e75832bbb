/** The README's generated parts (tool reference, environment table) match the code. */
import { expect, test } from "bun:test";
import { renderReadme } from "../../scripts/tool-reference.ts";
import { ENVIRONMENT } from "../../src/config.ts";
import { tools } from "../../src/catalog.ts";

test("README.md is current: regenerate with `bun run docs` (bun scripts/tool-reference.ts)", async () => {
  const { current, wanted } = await renderReadme();
  expect(current).toBe(wanted);
});

test("the README documents every tool and environment variable", async () => {
  const { current } = await renderReadme();
  for (const tool of tools) expect(current).toContain(`#### \`${tool.name}\``);
  for (const e of ENVIRONMENT) expect(current).toContain(`| \`${e.name}\` |`);
});
