/** screenshot over MCP: PNG as image content + saved file, SVG as text + file, theme, errors. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CELL_HEIGHT, CELL_WIDTH } from "../../src/render/svg.ts";
import { connect, type TestClient } from "../e2e/client.ts";
import { BUN, fixture } from "../helpers.ts";
import { cellBackground, cellColours, decodePng } from "./png.ts";

const dir = mkdtempSync(join(tmpdir(), "tui-tester-shot-"));
let c: TestClient;
beforeAll(async () => {
  c = await connect({ cwd: dir, env: { TUI_TESTER_OUTPUT_DIR: dir } });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  rmSync(dir, { recursive: true, force: true });
});

/** A session that printed a red "ERR" on a blue background at row 1, col 0, then waits. */
async function colourful(client = c): Promise<string> {
  const script = "process.stdout.write('top\\r\\n\\x1b[31;44mERR\\x1b[0m ok\\r\\n'); setInterval(() => {}, 1000);";
  const { sessionId } = await client.ok("start_session", { command: BUN, args: ["-e", script], cols: 40, rows: 10 });
  await client.ok("wait_for_text", { sessionId, pattern: "ERR ok" });
  return sessionId;
}

describe("screenshot", () => {
  test("png: an image block the client can decode, the same bytes saved in the output directory", async () => {
    const sessionId = await colourful();
    const result = await c.client.callTool({ name: "screenshot", arguments: { sessionId } });
    const content = result.content as { type: string; data?: string; mimeType?: string; text?: string }[];
    const image = content.find((block) => block.type === "image");
    expect(image?.mimeType).toBe("image/png");
    const data = result.structuredContent as Record<string, any>;
    expect(data).toMatchObject({ format: "png", width: 40 * CELL_WIDTH, height: 10 * CELL_HEIGHT });
    expect(data.path.startsWith(dir)).toBe(true);
    const bytes = Buffer.from(image!.data!, "base64");
    expect(readFileSync(data.path).equals(bytes)).toBe(true);
    expect(data.bytes).toBe(bytes.length);
    const png = decodePng(bytes);
    expect(cellBackground(png, 1, 0)).toBe("#0000ee"); // blue background under ERR
    expect(cellColours(png, 1, 0).get("#cd0000") ?? 0).toBeGreaterThan(10); // red E drawn on it
    expect(cellBackground(png, 1, 4)).toBe("#000000");
    expect(content[0]?.text).toContain(data.path);
    expect(content.find((block) => block.type === "resource_link")).toMatchObject({
      uri: `file://${data.path}`,
      mimeType: "image/png",
    });
  });

  test("svg: text content with the SVG, written to a relative path against the server's cwd; scale resizes the png", async () => {
    const sessionId = await colourful();
    const svg = await c.call("screenshot", { sessionId, format: "svg", path: "screen.svg" });
    expect(svg.isError).toBe(false);
    expect(svg.data.path).toBe(join(dir, "screen.svg"));
    const full = await c.client.callTool({ name: "screenshot", arguments: { sessionId, format: "svg" } });
    const text = (full.content as { type: string; text: string }[])[1]!.text;
    expect(text.startsWith("<svg")).toBe(true);
    expect(text).toContain(">ERR<");
    expect(readFileSync(join(dir, "screen.svg"), "utf8")).toContain(">ERR<");
    const big = await c.ok("screenshot", { sessionId, scale: 2 });
    expect([big.width, big.height]).toEqual([80 * CELL_WIDTH, 20 * CELL_HEIGHT]);
  });

  test("works on an exited session; bad paths and runaway sizes are errors naming the fix", async () => {
    const { sessionId } = await c.ok("start_session", { command: BUN, args: ["-e", "console.log('bye')"] });
    expect((await c.call("wait_for_text", { sessionId, pattern: "\u0000never", timeoutMs: 5000 })).data.exited).toBe(
      true,
    );
    expect((await c.ok("screenshot", { sessionId })).format).toBe("png");
    const missing = await c.call("screenshot", { sessionId, path: "nope/x.png" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("does not exist");
    const huge = await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")], cols: 1000, rows: 500 });
    const tooBig = await c.call("screenshot", { sessionId: huge.sessionId, scale: 4 });
    expect(tooBig.isError).toBe(true);
    expect(tooBig.text).toContain("smaller scale");
    expect(existsSync(join(dir, "nope"))).toBe(false);
    await c.ok("stop_session", { sessionId: huge.sessionId, signal: "SIGKILL" });
  });

  test("the theme from TUI_TESTER_THEME is the picture's background", async () => {
    const themed = await connect({
      cwd: dir,
      env: {
        TUI_TESTER_OUTPUT_DIR: dir,
        TUI_TESTER_THEME: JSON.stringify({ background: "#fdf6e3", foreground: "#657b83" }),
      },
    });
    try {
      const sessionId = await colourful(themed);
      const shot = await themed.ok("screenshot", { sessionId });
      expect(cellBackground(decodePng(readFileSync(shot.path)), 5, 5)).toBe("#fdf6e3");
    } finally {
      await themed[Symbol.asyncDispose]();
    }
  });
});
