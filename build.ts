#!/usr/bin/env bun
/**
 * Standalone executables: dist/tui-tester-<os>-<arch>[.exe] per target, each embedding the MCP
 * server and the bun-pty native library for that target. The version comes from package.json,
 * bundled in; bunfig/.env/tsconfig/package.json autoload is off in the binaries.
 *
 * After each build the executable is checked: its header is the target's format and CPU (ELF /
 * Mach-O / PE, x86-64 / arm64), the target's bun-pty library is embedded byte for byte, and no
 * other target's library is (linux targets also carry bun-pty's musl variant of the same arch,
 * which its loader requires separately).
 *
 *   bun build.ts              all five targets
 *   bun build.ts linux-x64    just the named ones
 */
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";

export interface Target {
  name: string;
  bun: Bun.Build.CompileTarget;
  /** bun-pty's native library this target must embed. */
  nativeLib: string;
  /** Other bun-pty libraries this target may embed too. */
  alsoAllowed: string[];
  format: "elf" | "macho" | "pe";
  cpu: "x64" | "arm64";
}

export const TARGETS: Target[] = [
  {
    name: "linux-x64",
    bun: "bun-linux-x64",
    nativeLib: "librust_pty.so",
    alsoAllowed: ["librust_pty_musl.so"],
    format: "elf",
    cpu: "x64",
  },
  {
    name: "linux-arm64",
    bun: "bun-linux-arm64",
    nativeLib: "librust_pty_arm64.so",
    alsoAllowed: ["librust_pty_arm64_musl.so"],
    format: "elf",
    cpu: "arm64",
  },
  {
    name: "darwin-x64",
    bun: "bun-darwin-x64",
    nativeLib: "librust_pty.dylib",
    alsoAllowed: [],
    format: "macho",
    cpu: "x64",
  },
  {
    name: "darwin-arm64",
    bun: "bun-darwin-arm64",
    nativeLib: "librust_pty_arm64.dylib",
    alsoAllowed: [],
    format: "macho",
    cpu: "arm64",
  },
  { name: "windows-x64", bun: "bun-windows-x64", nativeLib: "rust_pty.dll", alsoAllowed: [], format: "pe", cpu: "x64" },
];

const ROOT = import.meta.dir;
export const NATIVE_DIR = join(ROOT, "node_modules", "bun-pty", "rust-pty", "target", "release");
export const DIST = join(ROOT, "dist");

/** The target matching the machine this runs on, if it is one of ours. */
export function hostTarget(): Target | undefined {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return TARGETS.find((t) => t.name === `${os}-${process.arch}`);
}

export function outfileFor(target: Target, outdir = DIST): string {
  return join(outdir, `tui-tester-${target.name}${target.format === "pe" ? ".exe" : ""}`);
}

/** Executable format and CPU from the file header. */
export function headerOf(exe: Uint8Array): { format: Target["format"]; cpu: string } | undefined {
  const view = new DataView(exe.buffer, exe.byteOffset, exe.byteLength);
  if (exe.length < 64) return undefined;
  if (view.getUint32(0) === 0x7f454c46) {
    const machine = view.getUint16(18, true);
    return { format: "elf", cpu: machine === 0x3e ? "x64" : machine === 0xb7 ? "arm64" : `elf-machine-${machine}` };
  }
  if (view.getUint32(0, true) === 0xfeedfacf) {
    const cpu = view.getUint32(4, true);
    return { format: "macho", cpu: cpu === 0x01000007 ? "x64" : cpu === 0x0100000c ? "arm64" : `macho-cpu-${cpu}` };
  }
  if (view.getUint16(0) === 0x4d5a) {
    const pe = view.getUint32(0x3c, true);
    if (pe + 6 > exe.length || view.getUint32(pe) !== 0x50450000) return undefined;
    const machine = view.getUint16(pe + 4, true);
    return { format: "pe", cpu: machine === 0x8664 ? "x64" : machine === 0xaa64 ? "arm64" : `pe-machine-${machine}` };
  }
  return undefined;
}

/** Which of bun-pty's native libraries are inside the executable, each matched on its full bytes. */
/**
 * Files the program reads at run time through `import ... with { type: "file" }` (renderer wasm,
 * fonts, the web viewer's xterm.js): each must be inside every executable, byte for byte.
 */
export const RUNTIME_ASSETS = [
  "node_modules/@resvg/resvg-wasm/index_bg.wasm",
  ...[
    "DejaVuSansMono.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSansMono-Oblique.ttf",
    "DejaVuSansMono-BoldOblique.ttf",
    "DejaVuSans.ttf",
  ].map((f) => `node_modules/dejavu-fonts-ttf/ttf/${f}`),
  "node_modules/@xterm/xterm/lib/xterm.js",
  "node_modules/@xterm/xterm/css/xterm.css",
  "src/web/page/viewer.js",
];

export async function missingAssets(binary: string): Promise<string[]> {
  const exe = await readFile(binary);
  const missing: string[] = [];
  for (const asset of RUNTIME_ASSETS) if (exe.indexOf(await readFile(join(ROOT, asset))) < 0) missing.push(asset);
  return missing;
}

export async function embeddedLibraries(binary: string): Promise<string[]> {
  const exe = await readFile(binary);
  const found: string[] = [];
  for (const lib of (await readdir(NATIVE_DIR)).sort()) {
    if (exe.indexOf(await readFile(join(NATIVE_DIR, lib))) >= 0) found.push(lib);
  }
  return found;
}

/** Problems with a built executable for `target` (empty when it is right), and the libraries it embeds. */
export async function checkBinary(binary: string, target: Target): Promise<{ problems: string[]; embedded: string[] }> {
  const problems: string[] = [];
  const header = headerOf(new Uint8Array(await Bun.file(binary).slice(0, 4096).arrayBuffer()));
  if (header?.format !== target.format || header.cpu !== target.cpu) {
    problems.push(
      `header is ${header ? `${header.format}/${header.cpu}` : "unrecognised"}, expected ${target.format}/${target.cpu}`,
    );
  }
  const embedded = await embeddedLibraries(binary);
  if (!embedded.includes(target.nativeLib)) problems.push(`${target.nativeLib} is not embedded`);
  const stray = embedded.filter((lib) => lib !== target.nativeLib && !target.alsoAllowed.includes(lib));
  if (stray.length > 0) problems.push(`other targets' libraries are embedded: ${stray.join(", ")}`);
  return { problems, embedded };
}

export interface Built {
  target: Target;
  outfile: string;
  bytes: number;
  ms: number;
  embedded: string[];
}

export async function buildTarget(target: Target, outdir = DIST): Promise<Built> {
  const outfile = outfileFor(target, outdir);
  await mkdir(outdir, { recursive: true });
  await rm(outfile, { force: true });
  const started = performance.now();
  const result = await Bun.build({
    // The PTY reader Worker is its own entry point, so `new Worker(...)` finds it inside the binary.
    entrypoints: [join(ROOT, "src", "main.ts"), join(ROOT, "src", "pty", "bun-terminal-worker.ts")],
    minify: true,
    sourcemap: "none",
    // Precompiled bytecode: JavaScriptCore skips parsing the bundle at every start (issue 14).
    bytecode: true,
    format: "esm",
    compile: {
      target: target.bun,
      outfile,
      autoloadBunfig: false,
      autoloadDotenv: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
  });
  if (!result.success) throw new Error(`${target.name}: ${result.logs.map(String).join("\n")}`);
  const ms = performance.now() - started;
  const { problems, embedded } = await checkBinary(outfile, target);
  // Target-independent, so checked here rather than in checkBinary's per-target library check.
  for (const asset of await missingAssets(outfile)) problems.push(`${asset} is not embedded`);
  if (problems.length > 0) throw new Error(`${target.name} (${outfile}): ${problems.join("; ")}`);
  return { target, outfile, bytes: Bun.file(outfile).size, ms, embedded };
}

if (import.meta.main) {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !TARGETS.some((t) => t.name === w));
  if (unknown.length > 0) {
    process.stderr.write(
      `Unknown target(s): ${unknown.join(", ")}. Targets: ${TARGETS.map((t) => t.name).join(", ")}\n`,
    );
    process.exit(2);
  }
  for (const target of TARGETS.filter((t) => wanted.length === 0 || wanted.includes(t.name))) {
    const built = await buildTarget(target);
    const mib = (built.bytes / 1024 / 1024).toFixed(1);
    process.stderr.write(
      `built ${built.outfile} in ${(built.ms / 1000).toFixed(1)} s (${mib} MiB, embeds ${built.embedded.join(" + ")})\n`,
    );
  }
}
