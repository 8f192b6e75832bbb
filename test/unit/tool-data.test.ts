/**
 * A tool's `data` is typed from its `output` schema (tools/output-shape.ts DataOf): a field the schema neither
 * describes nor marks `unlisted` is a type error, so it cannot reach the model's text unnoticed. The
 * `@ts-expect-error` lines are the assertions: `bun run typecheck` (which covers test/) fails with "Unused
 * '@ts-expect-error' directive" if the typing stops catching them. The tests below check the runtime side.
 */
import { expect, test } from "bun:test";
import * as v from "valibot";
import { annotations, defineSessionTool, defineTool } from "../../src/tools/define.ts";
import { N, S, shape, unlisted } from "../../src/tools/output-shape.ts";
import { defaultParts } from "../../src/tools/reply.ts";
import { sessionId } from "../../src/tools/schemas.ts";

const input = v.strictObject({});
const read = annotations("Probe", "read");

const declared = defineTool({
  name: "probe",
  description: "Declared fields, an unlisted one and the session are all allowed.",
  input,
  output: shape({ count: N }, unlisted<{ note: string }>()),
  annotations: read,
  async run() {
    return { summary: "ok", data: { sessionId: "s1", count: 1, note: "for programs" } };
  },
});

// @ts-expect-error `extra` is neither described nor unlisted in the output schema
defineTool({
  name: "probe_undeclared",
  description: "A field the schema does not declare.",
  input,
  output: shape({ count: N }),
  annotations: read,
  async run() {
    return { summary: "ok", data: { count: 1, extra: true } };
  },
});

defineTool({
  name: "probe_wrong_type",
  description: "A declared field of the wrong type.",
  input,
  output: shape({ count: N }),
  annotations: read,
  // @ts-expect-error `count` is a number in the schema
  async run() {
    return { summary: "ok", data: { count: "one" } };
  },
});

// @ts-expect-error the second return's `when` is undeclared
defineSessionTool({
  name: "probe_session",
  description: "One of several returns adds an undeclared field.",
  input: v.strictObject({ sessionId }),
  output: shape({ label: S }),
  annotations: read,
  async act(session, _args) {
    if (session.running) return { summary: "a", data: { sessionId: session.id, label: "x" } };
    return { summary: "b", data: { sessionId: session.id, label: "y", when: 1 } };
  },
});

test("a declared tool's data is what it returns, and its text is those fields without the session", async () => {
  const outcome = await declared.run({}, undefined as never);
  expect(outcome.data).toEqual({ sessionId: "s1", count: 1, note: "for programs" });
  expect(defaultParts(outcome)).toEqual({ fields: { count: 1, note: "for programs" } });
});

test("an unlisted field is typed but not in the schema tools/list describes", () => {
  const schema = shape({ count: N }, unlisted<{ note: string }>());
  expect(Object.keys(schema.entries)).toEqual(["count"]);
});

test("explicit parts are the text, whatever the data", () => {
  expect(defaultParts({ data: { a: 1 }, parts: { lines: ["only this"] } })).toEqual({ lines: ["only this"] });
});
