/** build.ts's per-target check on synthetic executables: it must catch a wrong library or runtime, not just find some bytes. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkBinary, headerOf, NATIVE_DIR, TARGETS, type Target } from "../../build.ts";

const target = (name: string) => TARGETS.find((t) => t.name === name) as Target;
const lib = (name: string) => readFile(join(NATIVE_DIR, name));

/** A 4 KiB header that headerOf reads as the given format and CPU. */
function header(format: Target["format"], cpu: Target["cpu"]): Uint8Array {
  const bytes = new Uint8Array(4096);
  const view = new DataView(bytes.buffer);
  if (format === "elf") {
    view.setUint32(0, 0x7f454c46);
    view.setUint16(18, cpu === "x64" ? 0x3e : 0xb7, true);
  } else if (format === "macho") {
    view.setUint32(0, 0xfeedfacf, true);
    view.setUint32(4, cpu === "x64" ? 0x01000007 : 0x0100000c, true);
  } else {
    view.setUint16(0, 0x4d5a);
    view.setUint32(0x3c, 0x80, true);
    view.setUint32(0x80, 0x50450000);
    view.setUint16(0x84, cpu === "x64" ? 0x8664 : 0xaa64, true);
  }
  return bytes;
}

let dir: string;
let n = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tui-tester-check-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fake(...parts: Uint8Array[]): Promise<string> {
  const path = join(dir, `fake-${n++}`);
  await Bun.write(path, Buffer.concat(parts));
  return path;
}

test("headerOf reads every target's format and CPU", () => {
  for (const t of TARGETS) expect(headerOf(header(t.format, t.cpu))).toEqual({ format: t.format, cpu: t.cpu });
  expect(headerOf(new Uint8Array(4096))).toBeUndefined();
});

test("an executable with the right header and library passes; linux may carry the musl variant", async () => {
  for (const t of TARGETS) {
    const extras = await Promise.all(t.alsoAllowed.map(lib));
    const { problems, embedded } = await checkBinary(
      await fake(header(t.format, t.cpu), await lib(t.nativeLib), ...extras),
      t,
    );
    expect(problems).toEqual([]);
    expect(embedded.sort()).toEqual([t.nativeLib, ...t.alsoAllowed].sort());
  }
});

test("darwin-x64 with the linux .so instead of the dylib fails, naming both", async () => {
  const { problems } = await checkBinary(
    await fake(header("macho", "x64"), await lib("librust_pty.so")),
    target("darwin-x64"),
  );
  expect(problems).toEqual([
    "librust_pty.dylib is not embedded",
    "other targets' libraries are embedded: librust_pty.so",
  ]);
});

test("the right library plus another target's library fails", async () => {
  const { problems } = await checkBinary(
    await fake(header("macho", "x64"), await lib("librust_pty.dylib"), await lib("librust_pty.so")),
    target("darwin-x64"),
  );
  expect(problems).toEqual(["other targets' libraries are embedded: librust_pty.so"]);
});

test("a fragment of the library is not enough: the full bytes must be there", async () => {
  const whole = await lib("librust_pty_arm64.dylib");
  const fragment = whole.subarray(0, whole.length - 1);
  const { problems } = await checkBinary(await fake(header("macho", "arm64"), fragment), target("darwin-arm64"));
  expect(problems).toEqual(["librust_pty_arm64.dylib is not embedded"]);
});

test("the wrong runtime (arm64 ELF for linux-x64, ELF for windows) fails on the header", async () => {
  const so = await lib("librust_pty.so");
  expect(
    (await checkBinary(await fake(header("elf", "arm64"), so, await lib("librust_pty_musl.so")), target("linux-x64")))
      .problems,
  ).toEqual(["header is elf/arm64, expected elf/x64"]);
  expect(
    (await checkBinary(await fake(header("elf", "x64"), await lib("rust_pty.dll")), target("windows-x64"))).problems,
  ).toEqual(["header is elf/x64, expected pe/x64"]);
});
