/**
 * Goldens no test uses: files under a test file's __snapshots__/<file name>/ that none of its
 * expect_snapshot or expect_file steps names, and golden directories whose test file is gone.
 */
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { goldenName, snapshotDir, type TestCase } from "./load.ts";

/** Every file in a golden directory is a golden (screens .txt/.ansi, expect_file's under their own names), but a
 * write in progress. */
const isGolden = (name: string) => !name.endsWith(".tmp");

export async function obsoleteGoldens(files: string[], tests: TestCase[]): Promise<string[]> {
  const used = new Set<string>();
  for (const test of tests) {
    for (const step of test.steps) {
      const name = goldenName(step);
      if (name !== undefined) used.add(join(snapshotDir(test.file), name));
    }
  }
  const obsolete: string[] = [];
  const testFiles = new Set(files);
  const roots = new Set(files.map((file) => join(dirname(file), "__snapshots__")));
  for (const root of roots) {
    for (const dir of await entries(root)) {
      const goldenDir = join(root, dir);
      if (!(await stat(goldenDir).catch(() => null))?.isDirectory()) continue;
      const testFile = join(dirname(root), basename(goldenDir));
      // a file of the run: its unused goldens; a test file that no longer exists: all of them
      if (!testFiles.has(testFile) && (await stat(testFile).catch(() => null)) !== null) continue;
      for (const name of await entries(goldenDir)) {
        const golden = join(goldenDir, name);
        if (isGolden(name) && !used.has(golden)) obsolete.push(golden);
      }
    }
  }
  return obsolete.sort();
}

async function entries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}
