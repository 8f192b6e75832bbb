/**
 * tools/list says a shared field or output shape once, on the tool whose `describes` names it; json-schema.ts
 * derives the rest from those fields and keys nothing on a tool's name, so a new tool is pointed at (or points)
 * by what it declares.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import * as v from "valibot";
import { tools } from "../../src/catalog.ts";
import { defineTool } from "../../src/tools/define.ts";
import { inputJsonSchema } from "../../src/tools/json-schema.ts";

const SOURCE = join(import.meta.dir, "..", "..", "src", "tools", "json-schema.ts");

test("json-schema.ts names no tool", async () => {
  const source = await Bun.file(SOURCE).text();
  const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""); // comments may give examples
  expect(tools.map((t) => t.name).filter((name) => code.includes(`"${name}"`))).toEqual([]);
});

test("each described input is a field of its tool (or its arguments) that another tool shares", () => {
  for (const tool of tools)
    for (const [field, here] of Object.entries(tool.describes?.inputs ?? {})) {
      const own = Object.keys(tool.input.entries);
      if (here !== "arguments") expect(own, `${tool.name}.${here}`).toContain(here);
      const sharers = tools.filter((t) => t !== tool && field in t.input.entries);
      expect(sharers.length, `${tool.name} describes ${field}`).toBeGreaterThan(0);
    }
});

test("another tool's copy of a described field points at its describer", () => {
  const owner = defineTool({
    name: "owner_tool",
    description: "",
    input: v.strictObject({ shared: v.optional(v.strictObject({ a: v.string(), b: v.number() })) }),
    annotations: { title: "", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    describes: { inputs: { shared: "shared" } },
    run: async () => ({ summary: "", data: {} }),
  });
  const user = { ...owner, name: "user_tool", describes: undefined };
  const catalog = [owner, user];
  const listed = (tool: typeof owner) => inputJsonSchema(tool, catalog).properties as Record<string, unknown>;
  expect(listed(user).shared).toEqual({ type: "object", description: "As owner_tool.shared." });
  expect(listed(owner).shared).toEqual((inputJsonSchema(owner, false).properties as Record<string, unknown>).shared);
  expect(() => inputJsonSchema(user, [owner, { ...owner, name: "second_owner" }])).toThrow(/two tools describe/);
});
