/** python3 REPL: an expression, a multi-line def, ctrl+d exits 0. */
import { expect, test } from "bun:test";
import { launch } from "tui-tester";
import { describeApp } from "./helpers.ts";

describeApp("python3", () => {
  test("print(6*7) -> 42, a multi-line def works, ctrl+d exits with code 0", async () => {
    // PYTHONSTARTUP could print or change the prompt; a plain REPL is what we test
    await using py = await launch("python3", {
      args: ["-q", "-i"],
      env: { PYTHONSTARTUP: "", PYTHONDONTWRITEBYTECODE: "1" },
    });
    await py.waitForText(/^>>>/m);

    await py.type("print(6*7)\r", { waitFor: /^42$/m });

    // continuation prompts "... " appear for the body and the closing blank line
    await py.type("def f(x):\r", { waitFor: /^\.\.\.$/m });
    await py.type("    return x * 100 + 1\r", { waitFor: /^\.\.\.\s+return x \* 100 \+ 1\n\.\.\.$/m });
    await py.type("\r", { waitFor: /^\.\.\.\n>>>$/m });
    const called = await py.type("print(f(4))\r", { waitFor: /^401$/m });
    expect(called.screen!.after!.text).toContain(
      ">>> def f(x):\n...     return x * 100 + 1\n...\n>>> print(f(4))\n401",
    );

    await py.press("ctrl+d", { captureScreen: false });
    expect(await py.waitForExit({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0, signal: null });
  });
});
