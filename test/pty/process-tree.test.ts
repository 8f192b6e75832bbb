/** descendants(): the whole tree below a process, setsid children included, read per process on Linux. */
import { expect, test } from "bun:test";
import { descendants } from "../../src/pty/process-tree.ts";
import { until } from "../helpers.ts";

test("descendants finds children, grandchildren and a setsid child, parents first", async () => {
  const proc = Bun.spawn(["sh", "-c", 'sh -c "sleep 30 & exec sleep 31" & setsid sleep 32 & exec sleep 33']);
  try {
    const commands = () =>
      descendants(proc.pid).map((pid) =>
        require("node:fs").readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim(),
      );
    const expected = JSON.stringify(["sleep 30", "sleep 31", "sleep 32"]);
    await until(() => JSON.stringify(commands().sort()) === expected, `descendants ${expected}`);
    const [first] = descendants(proc.pid);
    expect(descendants(first!).length).toBeLessThanOrEqual(1); // sleep 31's child is sleep 30; the others have none
  } finally {
    const strays = descendants(proc.pid);
    proc.kill("SIGKILL");
    for (const pid of strays) process.kill(pid, "SIGKILL");
  }
});

test("descendants stops at its bound, keeping the nearest processes", async () => {
  const proc = Bun.spawn(["sh", "-c", "sleep 40 & sleep 41 & sleep 42 & wait"]);
  try {
    await until(() => descendants(proc.pid).length === 3, "three sleeps below the shell");
    expect(descendants(proc.pid, 2)).toHaveLength(2);
    expect(descendants(proc.pid, 2)).toEqual(descendants(proc.pid).slice(0, 2));
  } finally {
    const strays = descendants(proc.pid);
    proc.kill("SIGKILL");
    for (const pid of strays) process.kill(pid, "SIGKILL");
  }
});
