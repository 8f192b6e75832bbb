/** The bun:test matchers from "tui-tester/expect": waiting text and highlight matchers, in this process. */
import { expect, test } from "bun:test";
import "../../src/lib/expect.ts";
import { launch, TuiError } from "../../src/lib/index.ts";

const later = (script: string) => launch("bash", { args: ["-c", script], cols: 40, rows: 6 });

test("toShowText waits for text that arrives later; not.toShowText waits for text to go", async () => {
  await using t = await later("sleep 0.3; echo LATE; sleep 0.3; printf '\\033[2J\\033[HGONE'; sleep 30");
  await expect(t).toShowText("LATE");
  await expect(t).toShowText(/^L\w+E$/m);
  await expect(t).not.toShowText("LATE");
  await expect(t).toShowText("GONE");
});

test("a failing toShowText names the pattern and shows the screen", async () => {
  await using t = await later("echo hello; sleep 30");
  await expect(t).toShowText("hello");
  const failed = expect(t).toShowText("absent", { timeoutMs: 100 });
  await expect(failed).rejects.toThrow(/expected the screen to show "absent" within 100 ms\n--- screen ---\nhello/);
  await expect(expect(t).not.toShowText("hello", { timeoutMs: 100 })).rejects.toThrow(
    "expected the screen not to show",
  );
});

test("toHaveHighlight finds inverse or coloured runs, and lists them when it fails", async () => {
  await using t = await later("printf '  plain\\n  \\033[7mSelected item\\033[0m\\n  \\033[44mBlue\\033[0m'; sleep 30");
  await expect(t).toHaveHighlight("Selected");
  await expect(t).toHaveHighlight("Blue");
  await expect(t).not.toHaveHighlight("plain", { timeoutMs: 50 });
  await expect(expect(t).toHaveHighlight("plain", { timeoutMs: 50 })).rejects.toThrow(
    'row 1 (inverse): "Selected item"',
  );
});

test("a matcher given something other than a Terminal says so", async () => {
  const error = await expect({} as never)
    .toShowText("x")
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(TuiError);
  expect((error as TuiError).message).toContain("needs a Terminal from launch()");
});

/** The error a matcher's promise rejects with. (bun's `rejects` spins the loop inside the call, where the session's
 * output Worker cannot deliver, so the promise is awaited here first.) */
const failure = (promise: Promise<void>) =>
  promise.then(
    () => "passed",
    (e: Error) => e.message,
  );

test("toHaveExited waits for the exit and checks the code or the signal; a mismatch names both", async () => {
  {
    await using t = await later("sleep 0.2; echo done; exit 3");
    await expect(t).toHaveExited({ code: 3 });
  }
  {
    await using t = await later("echo fine");
    await expect(t).toHaveExited();
  }
  {
    await using t = await later("kill -TERM $$");
    await expect(t).toHaveExited({ signal: "SIGTERM" });
  }
  {
    await using t = await later("echo oops; exit 2");
    expect(await failure(expect(t).toHaveExited({ code: 0 }))).toMatch(
      /toHaveExited\(\): expected exit code 0, got 2\n--- screen ---\noops/,
    );
  }
  {
    await using t = await later("echo running; sleep 30");
    expect(await failure(expect(t).toHaveExited({ timeoutMs: 100 }))).toContain(
      "expected the program to exit with code 0 within 100 ms; it is still running\n--- screen ---\nrunning",
    );
  }
});

test("toHaveFile waits for a file the program writes; contains, equals with a mask, and not", async () => {
  const path = `lib-out-${process.pid}.txt`;
  await using t = await launch("bash", {
    args: ["-c", `sleep 0.2; printf 'id 4711\\nok\\n' > ${path}; sleep 30`],
    cwd: "/tmp",
  });
  try {
    await expect(t).toHaveFile(path, { contains: "ok" });
    await expect(t).toHaveFile(path, { equals: "id 1\nok\n", mask: [/\d+/] });
    await expect(t).not.toHaveFile(`${path}.nope`);
    expect(await failure(expect(t).toHaveFile(path, { contains: "bad", timeoutMs: 100 }))).toMatch(
      /toHaveFile\(\): File \/tmp\/lib-out-\d+\.txt does not contain "bad"/,
    );
    expect(await failure(expect(t).not.toHaveFile(path, { timeoutMs: 50 }))).toContain("expected no file there");
  } finally {
    await Bun.$`rm -f /tmp/${path}`.quiet();
  }
});
