/** Big cells snapshots stay compact and bounded, and the server keeps answering while it builds them. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect, type TestClient } from "../e2e/client.ts";
import { BUN, fixture } from "../helpers.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

async function painted(cols: number, rows: number): Promise<string> {
  const { sessionId } = await c.ok("start_session", { command: BUN, args: [fixture("paint-app.ts")], cols, rows });
  await c.ok("wait_for_text", { sessionId, pattern: "PAINTED", timeoutMs: 20_000 });
  return sessionId;
}

test("a 300x100 cells snapshot of a coloured screen stays under 1 MiB", async () => {
  const sessionId = await painted(300, 100);
  const result = await c.call("snapshot", { sessionId, format: "cells" });
  expect(result.isError).toBe(false);
  expect(result.data.cells.truncated).toBe(false);
  expect(result.data.cells.rows).toHaveLength(100);
  // one run per colour change: 30 runs a row, not 300 cell objects
  expect(result.data.cells.rows[50]).toHaveLength(30);
  const bytes = JSON.stringify(result.data).length;
  expect(bytes).toBeLessThan(1024 * 1024);
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});

test("a 1000x500 cells snapshot is read in bounded parts (50,000 cells a call)", async () => {
  const sessionId = await painted(1000, 500);
  const [part] = await Promise.all([c.call("snapshot", { sessionId, format: "cells" }), c.client.ping()]);
  expect(part.isError).toBe(false);
  expect(part.data.cells.truncated).toBe(true);
  expect(part.data.cells.region.rows * part.data.cells.region.cols).toBeLessThanOrEqual(50_000);
  expect(part.text).toContain("region.row");
  // the rest is reachable with region
  const last = await c.ok("snapshot", { sessionId, format: "cells", region: { row: 450 } });
  expect(last.cells).toMatchObject({ truncated: false, region: { row: 450, rows: 50 } });
  expect(last.cells.rows[49]).toHaveLength(100);
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});
