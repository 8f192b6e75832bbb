/**
 * No terminal outlives its test or its process. Under `bun test`, a terminal launched inside a test
 * (or a beforeEach) is closed when that test finishes, passed or failed, through bun:test's
 * onTestFinished. Whatever is still running when the process exits is killed with SIGKILL.
 *
 * onTestFinished called from a beforeAll fires when that hook ends, so a terminal launched there
 * would be closed before any test ran: launch it with { autoClose: false } and close it in afterAll.
 */
import { onTestFinished } from "bun:test";
import { descendants } from "../pty/index.ts";
import type { Terminal } from "./terminal.ts";

const live = new Set<Terminal>();
let exitHook = false;

export function track(terminal: Terminal, autoClose: boolean): void {
  live.add(terminal);
  void terminal.session.whenExited().then(() => live.delete(terminal));
  if (!exitHook) {
    exitHook = true;
    // "exit" listeners must be synchronous: signals only, no waiting for the children to go.
    process.on("exit", killAll);
  }
  if (autoClose) closeAfterTest(terminal);
}

function closeAfterTest(terminal: Terminal): void {
  try {
    onTestFinished(async () => {
      if (!terminal.running) return;
      terminal.closedBecause = `${terminal} was closed when the test or hook that launched it finished.`;
      await terminal.close({ graceMs: 500 });
    });
  } catch {
    // Not inside a bun test (a script, a describe body): the exit hook above is the safety net.
  }
}

/** Every live terminal's process group and escaped descendants get SIGKILL (synchronous). */
function killAll(): void {
  for (const terminal of live) {
    for (const pid of descendants(terminal.pid)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    terminal.session.signal("SIGKILL");
  }
  live.clear();
}
