/** --record-failures: the file of a failed attempt is kept, a passed one's deleted; a recorder that cannot start says why. */
import { expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { TestCase } from "../../src/cli/load.ts";
import { castName, createRecorder, type RecorderBackend } from "../../src/cli/recording.ts";
import type { Session } from "../../src/session/session.ts";
import { bash, runCli, scratch, shellSteps } from "./cli-helpers.ts";

const testCase = { relFile: "dir/menu.tui.json", name: "space / checks: it" } as TestCase;
const session = {} as Session;

/** Stands in for src/record: writes the file on start, as the real recorder does. */
function fileBackend(): RecorderBackend & { stopped: number } {
  let path = "";
  return {
    stopped: 0,
    start(_session, p) {
      path = p;
      require("node:fs").writeFileSync(p, '{"version": 2}\n');
      return true;
    },
    stop() {
      this.stopped++;
      return path;
    },
  };
}

test("cast names are file-name safe and say which test and attempt", () => {
  expect(castName(testCase, 2)).toBe("dir-menu.tui.json--space-checks-it--attempt-2.cast");
});

test("a failed attempt keeps its recording, a passed one deletes it", async () => {
  await using s = await scratch();
  const backend = fileBackend();
  const recorder = createRecorder(join(s.dir, "out"), backend);
  expect(recorder.start(session, testCase, 1).finish(true)).toBeUndefined();
  expect(readdirSync(join(s.dir, "out"))).toEqual([]);
  const kept = recorder.start(session, testCase, 2).finish(false);
  expect(kept).toEqual({ path: join(s.dir, "out", castName(testCase, 2)) });
  expect(existsSync(kept!.path!)).toBe(true);
  expect(backend.stopped).toBe(2);
});

test("a session already recorded, or a recorder that fails: the failed test says why", () => {
  const busy: RecorderBackend = { start: () => false, stop: () => "" };
  expect(createRecorder("/tmp", busy).start(session, testCase, 1).finish(false)?.unavailable).toContain(
    "already being recorded",
  );
  const broken: RecorderBackend = {
    start: () => {
      throw new Error("disk full");
    },
    stop: () => "",
  };
  expect(createRecorder("/tmp", broken).start(session, testCase, 1).finish(false)?.unavailable).toBe(
    "recording failed to start: disk full",
  );
});

test("with the recorder, a failed test's asciicast is kept in --output-dir and named in the report", async () => {
  await using s = await scratch();
  await s.write("two.tui.json", [
    { name: "passes", session: bash(), steps: shellSteps("echo fine", "fine") },
    {
      name: "fails",
      session: bash(),
      steps: [
        ...shellSteps("echo recorded-output", "recorded-output"),
        { type: "assert_text", pattern: "never there", timeoutMs: 200 },
      ],
    },
  ]);
  const run = await runCli(["--record-failures", "--output-dir", "casts", "--json"], { cwd: s.dir });
  expect(run.code).toBe(1);
  const failed = JSON.parse(run.stdout).tests.find((t: { name: string }) => t.name === "fails");
  const path = join(s.dir, "casts", "two.tui.json--fails--attempt-1.cast");
  expect(failed.recording).toEqual({ path, stepEndsMs: [expect.any(Number), expect.any(Number), expect.any(Number)] }); // step ends on its clock, for the html report
  expect(run.stderr).toContain("recording: casts/two.tui.json--fails--attempt-1.cast");
  expect(readdirSync(join(s.dir, "casts"))).toEqual(["two.tui.json--fails--attempt-1.cast"]);
  const [header, ...events] = (await Bun.file(path).text()).trim().split("\n");
  expect(JSON.parse(header!)).toMatchObject({ version: 2, width: 40, height: 8 });
  expect(events.map((e) => JSON.parse(e)[2]).join("")).toContain("recorded-output");
});
