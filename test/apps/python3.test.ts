/** python3 REPL: an expression, a multi-line def, ctrl+d exits 0. */
import { expect, test } from "bun:test";
import { describeApp, exitInfo, inputUntil, useServer, waitText } from "./helpers.ts";

describeApp("python3", () => {
  const h = useServer();

  test("print(6*7) -> 42, a multi-line def works, ctrl+d exits with code 0", async () => {
    // PYTHONSTARTUP could print or change the prompt; a plain REPL is what we test
    const { sessionId } = await h.start({ command: "python3", args: ["-q", "-i"], env: { PYTHONSTARTUP: "", PYTHONDONTWRITEBYTECODE: "1" }, cols: 80, rows: 24 });
    await waitText(h.c, sessionId, "^>>>", { regex: true, regexFlags: "m" });

    await inputUntil(h.c, "send_text", { sessionId, text: "print(6*7)\r" }, "^42$", { regex: true, regexFlags: "m" });

    // continuation prompts "... " appear for the body and the closing blank line
    await inputUntil(h.c, "send_text", { sessionId, text: "def f(x):\r" }, "^\\.\\.\\.$", { regex: true, regexFlags: "m" });
    await inputUntil(h.c, "send_text", { sessionId, text: "    return x * 100 + 1\r" }, "^\\.\\.\\.\\s+return x \\* 100 \\+ 1\\n\\.\\.\\.$", { regex: true, regexFlags: "m" });
    await inputUntil(h.c, "send_text", { sessionId, text: "\r" }, "^\\.\\.\\.\\n>>>$", { regex: true, regexFlags: "m" });
    const called = await inputUntil(h.c, "send_text", { sessionId, text: "print(f(4))\r" }, "^401$", { regex: true, regexFlags: "m" });
    expect(called.screen.after.text).toContain(">>> def f(x):\n...     return x * 100 + 1\n...\n>>> print(f(4))\n401");

    await h.c.ok("send_keys", { sessionId, keys: "ctrl+d", captureScreen: false });
    const exit = await exitInfo(h.c, sessionId);
    expect(exit).toMatchObject({ exited: true, exitCode: 0, signal: null });
  });
});
