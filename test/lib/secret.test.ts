/** type(text, { secret: true }): the program reads it; the result and the recording's input events do not hold it. */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch } from "tui-tester";

test("a secret reaches the program, and neither the result nor the recording's input has it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tui-lib-secret-"));
  const cast = join(dir, "s.cast");
  try {
    await using t = await launch("bash", { args: ["--norc", "--noprofile"], env: { PS1: "$ " } });
    await t.waitForText("$");
    t.startRecording(cast, { includeInput: true });
    await t.type("read -s PW; echo len=${#PW} first=${PW:0:3}\r");
    const r = await t.type("Xy7-secret\r", { secret: true, waitFor: "len=10 first=Xy7" });
    expect(r.summary).toStartWith("Sent text (secret, 11 chars)");
    expect(JSON.stringify({ ...r, screen: undefined })).not.toContain("Xy7-secret");
    t.stopRecording();
    const input = readFileSync(cast, "utf8")
      .split("\n")
      .slice(1)
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((e) => e[1] === "i")
      .map((e) => e[2])
      .join("");
    expect(input).toContain("read -s PW");
    expect(input).not.toContain("Xy7");
    expect(() => t.type("x", { secret: true, cps: 10 })).toThrow("cps does not apply");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
