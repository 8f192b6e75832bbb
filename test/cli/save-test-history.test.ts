/**
 * What save_test replays is said on each tool's definition (`history`), not in a list elsewhere: a new input
 * tool that declares `history: "input"` is saved with nothing else edited, and every input tool of the catalog
 * declares it.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import * as v from "valibot";
import { tools } from "../../src/catalog.ts";
import { sendText } from "../../src/lib/keyboard.ts";
import type { Session } from "../../src/session/session.ts";
import { annotations, defineSessionTool, type SessionToolDef } from "../../src/tools/define.ts";
import { observeEntries, sessionId } from "../../src/tools/schemas.ts";
import { connect, type TestClient } from "../e2e/client.ts";
import { bash, scratch } from "./cli-helpers.ts";

setDefaultTimeout(60_000);

/** A tool no catalog lists: it has the shell echo its text in capitals. */
const echoCapitals = {
  description: "Echo text in capitals.",
  input: v.strictObject({ sessionId, text: v.string(), ...observeEntries }),
  annotations: annotations("Shout", "write"),
  async act(session: Session, args: { text: string }) {
    return { summary: "shouted", data: sendText(session, `echo ${args.text.toUpperCase()}\r`) };
  },
};
const shout = defineSessionTool({ ...echoCapitals, name: "shout", history: "input" });
/** The same tool without `history`: its calls leave nothing to replay. */
const whisper = defineSessionTool({ ...echoCapitals, name: "whisper" });

let c: TestClient;
let dir: Awaited<ReturnType<typeof scratch>>;
beforeAll(async () => {
  dir = await scratch();
  c = await connect({ cwd: dir.dir, env: { DISPLAY: "", WAYLAND_DISPLAY: "" }, tools: [...tools, shout, whisper] });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  await dir[Symbol.asyncDispose]();
});

test("a new tool that declares history: input is a step of the saved test", async () => {
  const { sessionId: id } = await c.ok("start_session", bash({ cols: 50, rows: 8 }));
  await c.ok("wait_for_text", { sessionId: id, pattern: "t$", errorOnTimeout: true });
  await c.ok("whisper", { sessionId: id, text: "quiet" });
  await c.ok("shout", { sessionId: id, text: "loud", captureScreen: false });
  await c.ok("wait_for_text", { sessionId: id, pattern: "^LOUD$", regex: true, regexFlags: "m" });
  await c.ok("save_test", { sessionId: id, path: "shout.tui.json" });
  const file = JSON.parse(await Bun.file(join(dir.dir, "shout.tui.json")).text());
  const types = (file.steps as { type: string }[]).map((step) => step.type);
  expect(types.filter((type) => type === "shout" || type === "whisper")).toEqual(["shout"]);
  // saved as it was called, without the observe options
  expect(file.steps.find((step: { type: string }) => step.type === "shout")).toMatchObject({ text: "loud" });
  expect(file.steps.find((step: { type: string }) => step.type === "shout")).not.toHaveProperty("captureScreen");
});

test("every input tool of the catalog declares history: input, and only those", () => {
  const session = tools.filter((tool): tool is SessionToolDef => "act" in tool);
  // an input tool takes the observe options every input shares (before/after screens, waitFor)
  const takesObserve = (tool: SessionToolDef) => Object.keys(observeEntries).every((key) => key in tool.input.entries);
  const inputs = session.filter(takesObserve).map((tool) => tool.name);
  expect(inputs.length).toBeGreaterThan(5);
  expect(session.filter((tool) => tool.history === "input").map((tool) => tool.name)).toEqual(inputs);
  expect(session.filter((tool) => tool.history === "wait").map((tool) => tool.name)).toEqual(["wait_for_text"]);
});
