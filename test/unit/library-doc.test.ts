/**
 * docs/library.md's tables list every public method of Terminal with its return type, so they say
 * `Promise<...>` exactly for those that return one: a reader who writes `t.screen().text` gets undefined, so the table must say to await it.
 * The methods and their declared return types are read from src/lib/terminal.ts with TypeScript's parser.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dir, "..", "..");
/** Not part of what a test calls: the string form, and what `await using` calls. */
const UNLISTED = new Set(["toString", "constructor"]);

async function terminalMethods(): Promise<Map<string, string>> {
  const path = join(ROOT, "src/lib/terminal.ts");
  const file = ts.createSourceFile(path, await Bun.file(path).text(), ts.ScriptTarget.Latest, true);
  const methods = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (ts.isClassDeclaration(node) && node.name?.text === "Terminal") {
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        const hidden = ts.getCombinedModifierFlags(member) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected);
        if (hidden || UNLISTED.has(member.name.text)) continue;
        methods.set(member.name.text, member.type?.getText(file) ?? "(no declared type)");
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return methods;
}

/** method name -> the "returns" cell of its row in the doc's tables (rows look like | `name(...)` | returns | |). */
async function documented(): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  for (const line of (await Bun.file(join(ROOT, "docs/library.md")).text()).split("\n")) {
    const row = /^\| `(\w+)\(.*?\)` \| (.*?) \|/.exec(line);
    if (row) rows.set(row[1]!, row[2]!);
  }
  return rows;
}

test("every Terminal method is in docs/library.md with the type it returns, Promise<...> included", async () => {
  const methods = await terminalMethods();
  const rows = await documented();
  expect(methods.size).toBeGreaterThan(15);
  const wrong: string[] = [];
  for (const [name, type] of methods) {
    const cell = rows.get(name);
    if (cell === undefined) wrong.push(`${name}: not in a table`);
    else if (cell.replaceAll("\\|", "|") !== `\`${type}\``)
      wrong.push(`${name}: returns ${type}, the table says ${cell}`);
  }
  expect(wrong).toEqual([]);
});
