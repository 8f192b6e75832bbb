/**
 * The C library's functions through bun:ffi, for the few calls Node's API lacks (tcflow, clock_gettime).
 * Linux only: glibc's or musl's name; undefined elsewhere or when it cannot be loaded.
 */
import { dlopen, type FFIFunction, type Library } from "bun:ffi";

export function loadLibc<const Fns extends Record<string, FFIFunction>>(
  symbols: Fns,
): Library<Fns>["symbols"] | undefined {
  if (process.platform !== "linux") return undefined;
  const names = ["libc.so.6", `libc.musl-${process.arch === "arm64" ? "aarch64" : "x86_64"}.so.1`];
  for (const name of names) {
    try {
      return dlopen(name, symbols).symbols;
    } catch {
      // try the next name
    }
  }
  return undefined;
}
