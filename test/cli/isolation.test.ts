/**
 * `tui-tester test` runs sessions isolated by default: the runner's credentials and HOME do not reach
 * the program unless the file says so (passEnv, "isolate": false).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { bash, runCli, scratch, shellSteps } from "./cli-helpers.ts";

let dir: Awaited<ReturnType<typeof scratch>>;
beforeAll(async () => {
  dir = await scratch();
});
afterAll(() => dir[Symbol.asyncDispose]());

const ENV = { CLI_PLANTED_API_KEY: "sk-cli-planted", HOME: "/tmp/cli-runner-home" };

test("a test's session gets neither the runner's credentials nor its HOME; passEnv and isolate: false bring them", async () => {
  await dir.write("iso.tui.json", [
    {
      name: "hermetic",
      session: bash({ cols: 60 }),
      steps: shellSteps(
        'echo "K=${CLI_PLANTED_API_KEY-none} H=$([ "$HOME" = /tmp/cli-runner-home ] && echo runner || echo own)"',
        "K=none H=own",
      ),
    },
    {
      name: "passed on purpose",
      session: bash({ cols: 60, passEnv: ["CLI_PLANTED_API_KEY"], isolate: false }),
      steps: shellSteps('echo "K=${CLI_PLANTED_API_KEY-none} H=$HOME"', "K=sk-cli-planted H=/tmp/cli-runner-home"),
    },
  ]);
  const run = await runCli(["iso.tui.json"], { cwd: dir.dir, env: ENV });
  expect(run.stderr).toContain("2 passed");
  expect(run.code).toBe(0);
});
