/**
 * The ready oracle on real programs: each answers a key after a delay of a different kind, and the
 * after-screen must hold the answer, settled by the program's state (idle/periodic), not a guess.
 * No timing assertions. Linux only (the oracle reads /proc); elsewhere the fallback test runs.
 */
import { describe, expect, test } from "bun:test";
import { observe } from "../../src/session/observe.ts";
import { ADAPTIVE_QUIET_MS } from "../../src/session/quiet-window.ts";
import type { Session } from "../../src/session/session.ts";
import { waitForIdle, waitForText } from "../../src/session/wait.ts";
import { renderText } from "../../src/tools/render-text.ts";
import { blockParts } from "../../src/tools/reply.ts";
import { BUN, fixture, lacks, until } from "../helpers.ts";
import { startOptions, testRegistry } from "../registry-helpers.ts";

const linux = process.platform === "linux";
if (!linux) console.warn("skipping the ready-oracle tests: they read /proc, which only Linux has");
const hasPython = !lacks("python3", "the ready oracle's python delay tests");
const hasNode = !lacks("node", "the ready oracle's node timer test");
const utf8 = new TextEncoder();

async function started(
  registry: ReturnType<typeof testRegistry>,
  command: string,
  args: string[],
  ready: string,
): Promise<Session> {
  const session = await registry.start(startOptions(command, args, { env: { PS1: "$ " } }));
  const seen = await waitForText(session, { pattern: ready, timeoutMs: 10_000, pollIntervalMs: 50, matchScreen: true });
  expect(seen.matched).toBe(true);
  return session;
}

const press = (session: Session, keys: string) =>
  observe(session, () => session.write(utf8.encode(keys)), { captureScreen: true, screenDetail: "full" }).then(
    (o) => o.screen!,
  );

describe.skipIf(!linux || !hasPython)("delayed answers settle with the answer on screen", () => {
  for (const [mode, ms] of [
    ["sleep", 150],
    ["select", 150],
    ["poll", 150],
    ["cpu", 200],
    ["now", 0],
  ] as const) {
    test(`python raw-mode app, ${mode} ${ms} ms`, async () => {
      await using registry = testRegistry();
      const session = await started(registry, "python3", [fixture("ready-app.py"), mode, String(ms)], "READY");
      for (const n of [1, 2]) {
        const screen = await press(session, "x");
        expect(screen.after!.text).toContain(`DONE ${n}`);
        expect(screen.settledBy).toBe("idle");
        expect(screen.quiet).toBe(true);
        expect(screen.program).toBe("python3");
      }
    });
  }

  test("python process pool: a worker reading its call queue waits on the parent, not on the cap", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "python3", [fixture("ready-pool.py"), "150"], "READY");
    for (const n of [1, 2, 3]) {
      const screen = await press(session, "x");
      // The worker is back in its read of the pipe its parent writes: at rest once DONE is out.
      expect(screen.after!.text).toContain(`DONE ${n}`);
      expect(screen.settledBy).toBe("idle");
    }
  });

  test("python reading each key through a child forked after the last answer: the new child is found", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "python3", [fixture("ready-key-child.py")], "READY");
    for (const n of [1, 2, 3]) {
      const screen = await press(session, "x");
      // Its read of the new child's pipe waits on that child, which reads the terminal: at rest, not
      // waited out to the cap.
      expect(screen.after!.text).toContain(`DONE ${n}`);
      expect(screen.settledBy).toBe("idle");
    }
  });

  test("python REPL computing", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "python3", ["-q"], ">>>");
    const screen = await press(session, "sum(i*i for i in range(2000000))\r");
    expect(screen.after!.text).toContain("2666664666667000000");
    expect(screen.after!.text.trimEnd()).toEndWith(">>>");
    expect(screen.settledBy).toBe("idle");
  });

  test("a program still working at the cap says what it is doing", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "python3", [fixture("ready-app.py"), "cpu", "60000"], "READY");
    const screen = await press(session, "x");
    expect(screen.settledBy).toBe("timeout");
    expect(screen.quiet).toBe(false);
    expect(screen.busy).toMatchObject({ pid: session.pid, command: "python3", state: "running" });
    expect(renderText("sent", blockParts(screen))).toContain(
      `Still busy after ${screen.waitedMs} ms: python3 (pid ${session.pid}) is running.`,
    );
  });
});

describe.skipIf(!linux)("shells, threads, spinners", () => {
  test("bash: a command in the foreground, then a pipeline", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "bash", ["--norc", "--noprofile"], "$");
    const single = await press(session, "sleep 0.3; echo one-done\r");
    expect(single.after!.text).toContain("one-done");
    expect(single.settledBy).toBe("idle");
    expect(single.program).toBe("bash");
    const pipeline = await press(session, "sleep 0.3 | cat; echo pipe-done\r");
    expect(pipeline.after!.text).toContain("pipe-done");
    expect(pipeline.settledBy).toBe("idle");
    expect(renderText("sent", blockParts(pipeline))).toContain(`ms: bash is waiting for input.`);
  });

  test("bash: a command asleep past the cap settles at once, unsure, naming the sleep (its group has the terminal)", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "bash", ["--norc", "--noprofile"], "$");
    const screen = await press(session, "sleep 30; echo late-done\r");
    // Nothing can happen before the 2 s cap but the sleep's end: not waited out, and not claimed done.
    expect(screen).toMatchObject({ settledBy: "unsure", quiet: false, program: "sleep" });
    expect(screen.busy).toMatchObject({ command: "sleep", state: "timer", timerDueMs: 30_000 });
    expect(screen.after!.lines).not.toContain("late-done"); // only the echoed command line
    expect(renderText("sent", blockParts(screen))).toContain(
      `whether sleep is done: sleep (pid ${screen.busy!.pid}) is in a 30000 ms timed wait, due after this wait's limit.`,
    );
  });

  test.skipIf(!hasNode)("node (multi-threaded): a setTimeout answer", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "node", [fixture("ready-node.js"), "150"], "READY");
    for (const n of [1, 2]) {
      const screen = await press(session, "x");
      expect(screen.after!.text).toContain(`DONE ${n}`);
      expect(screen.settledBy).toBe("idle");
    }
  });

  test("a spinner: the answer is on screen, the settle does not wait out the cap, and it does not claim done", async () => {
    await using registry = testRegistry();
    const session = await started(registry, BUN, [fixture("spinner-app.ts")], "spinning");
    const first = await press(session, "x");
    expect(first.after!.text).toContain("KEY 1");
    // Its 80 ms redraw timer could hide work: unsure, with the tick, and not quiet.
    expect(first).toMatchObject({ settledBy: "unsure", tickMs: expect.any(Number), quiet: false });
    expect(first.waitedMs).toBeLessThan(2000);
    // A redraw between the inputs is what shows the program writes on its own.
    const bytes = session.bytesOut;
    await until(() => session.bytesOut > bytes, "a spinner frame");
    const second = await press(session, "x");
    expect(second.after!.text).toContain("KEY 2");
    expect(second.settledBy).toBe("unsure");
  });

  test("wait_for_idle mode idle waits for the program, not for quiet output", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "bash", ["--norc", "--noprofile"], "$");
    session.write(utf8.encode("sleep 0.3; echo idle-done\r"));
    const result = await waitForIdle(session, { idleMs: 10, timeoutMs: 10_000, mode: "idle" });
    expect(result).toMatchObject({ idle: true, settledBy: "idle", program: "bash" });
    expect(session.emulator.text()).toContain("idle-done");
  });
});

test("TUI_TESTER_READY=quiet forces the quiet window, and the reply says so", async () => {
  await using registry = testRegistry({ ready: "quiet" });
  const session = await started(registry, BUN, [fixture("two-phase-app.ts"), "20"], "READY");
  const screen = await press(session, "x");
  expect(screen.settledBy).toBe("quiet");
  expect(screen.fallback).toBe("TUI_TESTER_READY=quiet");
  expect(screen.after!.text).toContain("PHASE1 1");
  expect(renderText("sent", blockParts(screen))).toContain(
    "output quiet for 100 ms (TUI_TESTER_READY=quiet; it may still be working)",
  );
  const idle = await waitForIdle(session, { idleMs: 50, timeoutMs: 5000, mode: "idle" });
  expect(idle).toMatchObject({ settledBy: "quiet", fallback: "TUI_TESTER_READY=quiet" });
});

test("OSC 133 prompt marks: the finished command's exit status is in the screen block", async () => {
  await using registry = testRegistry();
  // A minimal bash shell integration: a D mark with the last status before every prompt.
  const session = await registry.start(
    startOptions("bash", ["--norc", "--noprofile"], {
      env: { PS1: "$ ", PROMPT_COMMAND: 'printf "\\033]133;D;%s\\007" "$?"' },
    }),
  );
  await waitForText(session, { pattern: "$", timeoutMs: 10_000, pollIntervalMs: 50, matchScreen: true });
  const failed = await press(session, "(exit 3)\r");
  expect(failed.commandStatus).toBe(3);
  expect(renderText("sent", blockParts(failed))).toContain("The command finished with exit status 3.");
  const ok = await press(session, "true\r");
  expect(ok.commandStatus).toBe(0);
  const typing = await observe(session, () => session.write(utf8.encode("ech")), {
    captureScreen: true,
    screenDetail: "full",
  });
  expect(typing.screen!.commandStatus).toBeUndefined();
});

test.skipIf(!linux)("wait_for_idle learns the rest itself when every earlier input used waitFor", async () => {
  await using registry = testRegistry();
  // bun rests on a 1 s timer: without a known rest that timed wait would look busy until the timeout.
  const session = await started(registry, BUN, [fixture("echo-keys.ts")], "READY");
  const waitFor = {
    pattern: "KEY 61",
    timeoutMs: 10_000,
    pollIntervalMs: 50,
    matchScreen: true,
    regex: false,
    regexFlags: "",
  };
  const typed = await observe(session, () => session.write(utf8.encode("a")), {
    captureScreen: true,
    screenDetail: "full",
    waitFor,
  });
  expect(typed.screen!.settledBy).toBe("waitFor");
  const idle = await waitForIdle(session, { idleMs: 30, timeoutMs: 10_000, mode: "idle" });
  expect(idle).toMatchObject({ idle: true, settledBy: "idle" });
});

test("the quiet window waits out a second part 30 ms after the first, and says it ended quiet", async () => {
  await using registry = testRegistry({ ready: "quiet" });
  const session = await started(registry, BUN, [fixture("two-phase-app.ts"), "30"], "READY");
  const screen = await press(session, "x");
  expect(screen.settledBy).toBe("quiet");
  expect(screen.after!.text).toContain("PHASE2 1");
  expect(screen.quiet).toBe(true);
  // the window is counted from the last output, so the settle lasted at least one window past the input
  expect(screen.waitedMs).toBeGreaterThanOrEqual(ADAPTIVE_QUIET_MS);
});

test("the quiet window ends at its cap with quiet: false for a program that keeps writing", async () => {
  await using registry = testRegistry({ ready: "quiet" });
  const session = await started(
    registry,
    "bash",
    ["--norc", "--noprofile", "-c", "echo READY; read -n1; while :; do echo tick; sleep 0.02; done"],
    "READY",
  );
  const screen = await press(session, "x");
  expect(screen.settledBy).not.toBe("exit");
  expect(screen.quiet).toBe(false);
  expect(screen.after!.text).toContain("tick");
});

const hasMc = !lacks("mc", "the ready oracle's mc test");

describe.skipIf(!linux || !hasMc)("mc: rests in select with no timeout and in select(10 s), passes select(1 s)", () => {
  test("after the first arrow key reaches the cap, every later key settles idle, Tab between them too", async () => {
    await using registry = testRegistry();
    const home = (await import("node:fs")).mkdtempSync("/tmp/tui-tester-mc-");
    for (const name of ["alpha", "bravo", "charlie", "delta", "echo"]) await Bun.write(`${home}/${name}.txt`, name);
    const session = await registry.start(
      startOptions("mc", ["--nosubshell", home, home], { env: { HOME: home, XDG_CONFIG_HOME: `${home}/.config` } }),
    );
    try {
      const wait = { pattern: "charlie", timeoutMs: 10_000, pollIntervalMs: 50, matchScreen: true };
      const seen = await waitForText(session, wait);
      expect(seen.matched).toBe(true);
      // CSI B, not the SS3 B of mc's application cursor mode: mc waits in select(1 s) after it (its
      // escape-sequence timeout), then rests in select(10 s). The first key reaches the cap (the 10 s
      // wait is learnt then); the select(1 s) is learnt as rest after it ends twice with nothing written.
      await press(session, "\x1b[B");
      const keys = ["\x1b[B", "\t", "\x1b[B", "\x1b[B", "\t", "\x1b[B", "\x1b[B"];
      const after: string[] = [];
      for (const key of keys) {
        const screen = await press(session, key);
        expect(screen.settledBy).toBe("idle");
        after.push(screen.after!.text);
      }
      for (const text of after) expect(text).toContain("alpha.txt");
      expect(after.at(-1)).toContain("UP--DIR"); // the mini status: the cursor stays on ".."
    } finally {
      (await import("node:fs")).rmSync(home, { recursive: true, force: true });
    }
  }, 30_000); // the first key waits out the 2 s cap and the next two mc's 1 s: ~4.5 s idle, more under load
});
