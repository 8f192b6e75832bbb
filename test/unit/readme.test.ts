/**
 * The docs' generated parts (README tool index and variable table, docs/tool-reference.md) match the
 * code, and the README stays a short front page: at most 400 lines, a table of contents that matches
 * its sections, and links that lead somewhere.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { anchor, renderReadme, renderReference } from "../../scripts/tool-reference.ts";
import { tools } from "../../src/catalog.ts";
import { ENVIRONMENT } from "../../src/config.ts";

const ROOT = join(import.meta.dir, "..", "..");

test("README.md and docs/tool-reference.md are current: regenerate with `bun run docs`", async () => {
  for (const doc of [await renderReadme(), await renderReference()]) expect(doc.current, doc.path).toBe(doc.wanted);
});

test("the reference documents every tool; the README lists every tool and environment variable", async () => {
  const { current: readme } = await renderReadme();
  const { current: reference } = await renderReference();
  for (const tool of tools) {
    expect(reference).toContain(`## \`${tool.name}\` — `);
    expect(readme).toContain(`| [\`${tool.name}\`](docs/tool-reference.md#`);
  }
  for (const e of ENVIRONMENT) expect(readme).toContain(`| \`${e.name}\` |`);
});

test("the README is at most 400 lines, and its table of contents lists exactly its sections, in order", async () => {
  const { current } = await renderReadme();
  expect(current.split("\n").length).toBeLessThanOrEqual(400);
  const sections = [...current.matchAll(/^## (.+)$/gm)].map((m) => m[1]!).filter((h) => h !== "Contents");
  const contents = current.split(/^## Contents$/m)[1]?.split(/^## /m)[0] ?? "";
  const listed = [...contents.matchAll(/^- \[(.+)\]\(#(.+)\)$/gm)].map((m) => ({ title: m[1]!, target: m[2]! }));
  expect(listed.map((l) => l.title)).toEqual(sections);
  for (const { title, target } of listed) expect(target).toBe(anchor(title));
});

/** Every relative link in the docs points at a file that exists, and a `#fragment` at one of its headings. */
test("relative links in README.md and docs/*.md lead to existing files and headings", async () => {
  const docs = ["README.md", ...[...new Bun.Glob("docs/*.md").scanSync(ROOT)]];
  const headings = async (file: string) =>
    [...(await Bun.file(file).text()).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!));
  for (const doc of docs) {
    const text = await Bun.file(join(ROOT, doc)).text();
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!) || target!.startsWith("../../")) continue; // web links; GitHub's releases page
      const [path, fragment] = target!.split("#");
      const file = path === "" ? join(ROOT, doc) : join(ROOT, dirname(doc), path!);
      expect(existsSync(file), `${doc} links to ${target}`).toBe(true);
      if (fragment && file.endsWith(".md"))
        expect(await headings(file), `${doc} links to ${target}`).toContain(fragment);
    }
  }
});
