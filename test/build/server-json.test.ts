/**
 * server.json, the MCP Registry entry (format: the registry's server.schema.json, 2025-12-11): it
 * names this npm package at package.json's version, and the release workflow fills in the owner
 * (the registry name must equal package.json's mcpName, which the workflow sets alike).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import server from "../../server.json" with { type: "json" };

const ROOT = join(import.meta.dir, "..", "..");

test("server.json points at this package and version over stdio", () => {
  expect(server.$schema).toBe("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
  expect(server.version).toBe(pkg.version);
  expect(server.packages).toEqual([
    { registryType: "npm", identifier: pkg.name, version: pkg.version, transport: { type: "stdio" } },
  ]);
  // The registry's limit on description.
  expect(server.description.length).toBeLessThanOrEqual(100);
});

test("the release workflow sets the registry name from the repository owner in both files before publishing", async () => {
  expect(server.name).toBe(`io.github.OWNER/${pkg.name}`);
  const workflow = await Bun.file(join(ROOT, ".github", "workflows", "ci.yml")).text();
  const setName = workflow.indexOf('npm pkg set mcpName="$name"');
  expect(setName).toBeGreaterThan(0);
  expect(workflow.indexOf("s.name = process.argv[1]")).toBeGreaterThan(setName);
  expect(workflow.indexOf("npm publish --provenance")).toBeGreaterThan(setName);
  expect(workflow.indexOf("./mcp-publisher publish")).toBeGreaterThan(workflow.indexOf("npm publish --provenance"));
});
