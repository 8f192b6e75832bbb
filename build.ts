#!/usr/bin/env bun
/**
 * Standalone executables: dist/tui-tester-<os>-<arch>[.exe] per target, each embedding the MCP
 * server and the bun-pty native library for that target (checked after each build). The version
 * comes from package.json, bundled in; bunfig/.env/tsconfig autoload is off in the binaries.
 *
 *   bun build.ts              all five targets
 *   bun build.ts linux-x64    just the named ones
 */
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";

interface Target {
  name: string;
  bun: Bun.Build.CompileTarget;
  /** bun-pty's native library this target must embed. */
  nativeLib: string;
}

const TARGETS: Target[] = [
  { name: "linux-x64", bun: "bun-linux-x64", nativeLib: "librust_pty.so" },
  { name: "linux-arm64", bun: "bun-linux-arm64", nativeLib: "librust_pty_arm64.so" },
  { name: "darwin-x64", bun: "bun-darwin-x64", nativeLib: "librust_pty.dylib" },
  { name: "darwin-arm64", bun: "bun-darwin-arm64", nativeLib: "librust_pty_arm64.dylib" },
  { name: "windows-x64", bun: "bun-windows-x64", nativeLib: "rust_pty.dll" },
];

const NATIVE_DIR = join(import.meta.dir, "node_modules", "bun-pty", "rust-pty", "target", "release");

export function outfileFor(target: Target): string {
  return join("dist", `tui-tester-${target.name}${target.name.startsWith("windows") ? ".exe" : ""}`);
}

/** The native library's bytes must be inside the executable (a prefix is enough to identify it). */
async function embedsLibrary(binary: string, lib: string): Promise<boolean> {
  const exe = await readFile(binary);
  const native = await readFile(join(NATIVE_DIR, lib));
  const probe = native.subarray(Math.floor(native.length / 2), Math.floor(native.length / 2) + 256);
  return exe.indexOf(probe) >= 0;
}

async function buildTarget(target: Target): Promise<void> {
  const outfile = outfileFor(target);
  const result = await Bun.build({
    entrypoints: [join(import.meta.dir, "src", "main.ts")],
    minify: true,
    sourcemap: "none",
    compile: { target: target.bun, outfile, autoloadBunfig: false, autoloadDotenv: false, autoloadTsconfig: false, autoloadPackageJson: false },
  });
  if (!result.success) throw new Error(`${target.name}: ${result.logs.map(String).join("\n")}`);
  if (!(await embedsLibrary(outfile, target.nativeLib))) throw new Error(`${target.name}: ${target.nativeLib} is not embedded in ${outfile}`);
  const size = (await Bun.file(outfile).size) / 1024 / 1024;
  process.stderr.write(`built ${outfile} (${size.toFixed(1)} MiB, embeds ${target.nativeLib})\n`);
}

if (import.meta.main) {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !TARGETS.some((t) => t.name === w));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown target(s): ${unknown.join(", ")}. Targets: ${TARGETS.map((t) => t.name).join(", ")}\n`);
    process.exit(2);
  }
  await mkdir("dist", { recursive: true });
  for (const target of TARGETS.filter((t) => wanted.length === 0 || wanted.includes(t.name))) {
    await rm(outfileFor(target), { force: true });
    await buildTarget(target);
  }
}

export { TARGETS };
