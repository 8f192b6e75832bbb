/**
 * save_test: the session so far as a `tui-tester test` file that replays it from its start, with
 * goldens beside it. Explore with MCP, save, rerun in CI.
 */
import { existsSync } from "node:fs";
import { mkdir, rename } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import * as v from "valibot";
import { TuiError } from "../errors.ts";
import { MAX_HISTORY_ENTRIES } from "../session/history.ts";
import type { Session } from "../session/session.ts";
import { volatileSpans } from "../session/stable-text.ts";
import type { Viewport } from "../session/baseline.ts";
import { annotations, defineSessionTool } from "../tools/define.ts";
import { N, S, shape, strings, unlisted } from "../tools/output-shape.ts";
import { optionalBoolean, sessionId } from "../tools/schemas.ts";
import { maskRows } from "../lib/mask.ts";
import { expectSnapshotStep, toLibMasks } from "./expect-snapshot.ts";
import { planTest, secretMasks, suggestMasks, testGoldenDir } from "./test-from-history.ts";
import { tsTestText } from "./ts-writer.ts";

/** How long save_test watches a running screen for text that changes by itself (clocks tick each second). */
const WATCH_MS = 1200;
/** Most characters of the written file echoed in the result. */
const ECHO_CHARS = 6000;
/** What save_test writes: a runner file (.tui.json, .tui.yaml) or a bun test (.test.ts, .spec.ts). */
const FILE_KINDS = /\.tui\.(json|ya?ml)$|[._](?:test|spec)\.(ts)$/i;
export const TEST_SCHEMA_FILE = join(import.meta.dir, "..", "..", "schema", "tui-test.schema.json");

export const saveTestTool = defineSessionTool({
  name: "save_test",
  output: shape(
    { path: S, steps: N, goldens: strings },
    unlisted<{
      format: string;
      insertedWaits: number;
      idleWaits: number;
      highlightWaits: number;
      leftOut: string[];
      notes: string[];
      file: string;
    }>(),
  ),
  description:
    "Save this session from its start as a `tui-tester test` file: every input, a wait after each, " +
    "your assert_text checks, masked goldens beside it. Works after exit.",
  input: v.strictObject({
    sessionId,
    path: v.pipe(v.string(), v.minLength(1), v.maxLength(4096), v.description("*.tui.json, *.tui.yaml or *.test.ts")),
    name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
    format: v.optional(v.picklist(["json", "yaml", "ts"])),
    snapshots: v.optional(
      v.pipe(v.picklist(["end", "waits", "none"]), v.description("waits: also a golden before each input.")),
      "end",
    ),
    overwrite: optionalBoolean(false),
  }),
  annotations: annotations("Save test", "write", true),
  allowExited: true,
  async act(session, args, ctx) {
    const history = session.history;
    if (history.full) {
      throw new TuiError(
        "HISTORY_FULL",
        `Session ${session.id}'s input history stopped recording at ${history.full.reason} (${history.full.at}); ` +
          "a test of only its start would not end on its screen.",
        `Start a new session and save it before ${MAX_HISTORY_ENTRIES} inputs (run_script steps count one each).`,
      );
    }
    const path = resolve(ctx.cwd, args.path);
    const ext = FILE_KINDS.exec(path)?.slice(1).find(Boolean)?.toLowerCase();
    if (!ext)
      throw new TuiError(
        "INVALID_ARGUMENT",
        `path "${args.path.slice(0, 200)}" does not end in .tui.json, .tui.yaml or .test.ts, ` +
          "so neither `tui-tester test` nor `bun test` would find it.",
        'Example: "tests/htop-setup.tui.json", or "tests/htop-setup.test.ts" for a bun test.',
      );
    const kind = ext === "ts" ? "ts" : ext === "json" ? "json" : "yaml";
    const format = args.format ?? kind;
    if (format !== kind)
      throw new TuiError(
        "INVALID_ARGUMENT",
        `format "${format}" does not match the extension of "${basename(path)}".`,
        "Drop format (it follows the extension), or change the extension.",
      );
    if (existsSync(path) && !args.overwrite)
      throw new TuiError(
        "FILE_EXISTS",
        `${path} already exists.`,
        "Pass overwrite: true to replace it (and its goldens), or choose another path.",
      );

    const [first, second] = await twoReads(session, ctx.signal);
    history.settle(first, second);
    const name = args.name ?? basename(path).replace(FILE_KINDS, "");
    const slug =
      name
        .replace(/[^A-Za-z0-9._-]+/g, "-")
        .replace(/^[^A-Za-z0-9]+/, "")
        .slice(0, 80) || "session";
    const plan = planTest({
      entries: history.entries,
      launch: history.launch,
      readyText: history.readyText,
      testDir: dirname(path),
      name,
      slug,
      snapshots: args.snapshots,
      inheritedEnv: { TZ: process.env.TZ, LANG: process.env.LANG },
      endMask: [
        ...suggestMasks(second.lines, volatileSpans([first, second])),
        ...secretMasks(second.lines, history.secrets),
      ],
      secrets: history.secrets,
      // an exit the server caused (stop_session) is not the program's to repeat in the rerun
      ...(session.exit && session.signalled === null
        ? { exit: { code: session.exit.exitCode, signal: session.exit.signal } }
        : {}),
    });

    // built before anything is written: a session the library cannot replay fails here, leaving no goldens
    const text = format === "ts" ? tsTestText(plan.test, path) : fileText(plan.test, format, path);
    await mkdir(dirname(path), { recursive: true });
    const goldenDir = testGoldenDir(path);
    const goldens: string[] = [];
    for (const golden of plan.goldens) {
      const file = join(goldenDir, `${golden.name}.${golden.format === "ansi" ? "ansi" : "txt"}`);
      const rows =
        golden.format === "ansi" ? golden.lines : maskRows(golden.lines, toLibMasks(golden.mask), session.cols);
      await writeAtomically(file, `${rows.join("\n")}\n`);
      goldens.push(file);
    }
    if (plan.endSnapshot) {
      // the live screen, through expect_snapshot itself, so the golden is exactly what a rerun compares
      const written = await expectSnapshotStep.act(
        session,
        {
          sessionId: session.id,
          name: plan.endSnapshot.name,
          format: "text",
          dir: goldenDir,
          update: "all",
          timeoutMs: 0,
          mask: plan.endSnapshot.mask,
        },
        ctx,
      );
      goldens.push(String(written.data.file));
    }
    await writeAtomically(path, text);
    const steps = (plan.test.steps as unknown[]).length;
    const shown = text.length > ECHO_CHARS ? `${text.slice(0, ECHO_CHARS)}…` : text;
    const left = history.leftOut.length ? `; left out: ${history.leftOut.join("; ")}` : "";
    const idle =
      (plan.highlightWaits ? `, ${plan.highlightWaits} on a moved highlight` : "") +
      (plan.idleWaits ? `, ${plan.idleWaits} idle waits where no new text appeared` : "");
    return {
      summary:
        `Saved ${steps} steps (${plan.insertedWaits} waits chosen from new text${idle}) and ${goldens.length} ` +
        `golden(s) to ${path}${left}. Run it: ${format === "ts" ? "bun test" : "tui-tester test"} ${relative(ctx.cwd, path) || path}`,
      data: {
        sessionId: session.id,
        path,
        format,
        steps,
        insertedWaits: plan.insertedWaits,
        idleWaits: plan.idleWaits,
        highlightWaits: plan.highlightWaits,
        goldens,
        leftOut: history.leftOut,
        notes: plan.notes,
        file: shown,
      },
      // the file as written, so the agent can read the steps it saved and judge them
      parts: {
        lines: [...plan.notes, ...goldens.map((g) => `golden: ${g}`)],
        blocks: [`${basename(path)}:\n${shown}`],
      },
    };
  },
});

/** The screen now and, for a running session, WATCH_MS later: what differs between them is masked. */
async function twoReads(session: Session, signal: AbortSignal): Promise<[Viewport, Viewport]> {
  await session.emulator.flushed();
  const first = session.emulator.viewport();
  if (!session.running) return [first, first];
  await new Promise<void>((done) => {
    const timer = setTimeout(finish, WATCH_MS);
    const off = session.onExit(finish);
    signal.addEventListener("abort", finish, { once: true });
    function finish() {
      clearTimeout(timer);
      off();
      signal.removeEventListener("abort", finish);
      done();
    }
  });
  await session.emulator.flushed();
  return [first, session.emulator.viewport()];
}

function fileText(test: Record<string, unknown>, format: string, path: string): string {
  const schema = existsSync(TEST_SCHEMA_FILE) ? relative(dirname(path), TEST_SCHEMA_FILE) : undefined;
  if (format === "json") return `${JSON.stringify(schema ? { $schema: schema, ...test } : test, null, 2)}\n`;
  const header =
    `# Written by tui-tester save_test. Run: tui-tester test ${basename(path)}\n` +
    (schema ? `# yaml-language-server: $schema=${schema}\n` : "");
  return header + Bun.YAML.stringify(test, null, 2);
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await Bun.write(temp, text);
  await rename(temp, file);
}
