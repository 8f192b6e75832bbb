/**
 * The clocks absolute kernel timeouts are on (a futex's FUTEX_WAIT_BITSET, clock_nanosleep with
 * TIMER_ABSTIME): CLOCK_MONOTONIC through clock_gettime(2), CLOCK_REALTIME as Date.now().
 */
import { FFIType, ptr } from "bun:ffi";
import { loadLibc } from "../../util/libc.ts";

/** clockid_t values (<time.h>, Linux). */
export const CLOCK_REALTIME = 0;
export const CLOCK_MONOTONIC = 1;

const symbols = { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } } as const;
let libc: { loaded: ReturnType<typeof loadLibc<typeof symbols>> } | undefined;
const timespec = new BigInt64Array(2);

/** Now on clock `clock` (a clockid_t: realtime or monotonic) in ms; undefined for another clock or without libc. */
export function clockNowMs(clock: number): number | undefined {
  if (clock === CLOCK_REALTIME) return Date.now();
  if (clock !== CLOCK_MONOTONIC) return undefined;
  const clock_gettime = (libc ??= { loaded: loadLibc(symbols) }).loaded?.clock_gettime;
  if (clock_gettime === undefined || clock_gettime(CLOCK_MONOTONIC, ptr(timespec)) !== 0) return undefined;
  return Number(timespec[0]!) * 1000 + Number(timespec[1]!) / 1e6;
}
