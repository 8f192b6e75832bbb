/**
 * The ready oracle on a few programs of its corpus (test/fixtures/corpus/cases.ts; the whole corpus
 * runs in bench/ready-corpus.ts). The rule checked on every input: a screen the reply presents as
 * done (idle, periodic, quiet) holds the answer; where the program rests on a short tick, the reply
 * says it cannot tell (unsure, not quiet). Programs that answer at once or after work the kernel
 * shows must have the answer on screen. The Go and ncurses programs are built into a temporary
 * directory and skipped when go or gcc is absent. Only cases of the tuned part are used here.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { observe } from "../../src/session/observe.ts";
import { waitForText } from "../../src/session/wait.ts";
import { buildCorpus, corpus, type CorpusCase } from "../fixtures/corpus/cases.ts";
import { freshCorpus } from "../fixtures/corpus/fresh.ts";
import { freshCCorpus } from "../fixtures/corpus/fresh-c.ts";
import { freshDCorpus } from "../fixtures/corpus/fresh-d.ts";
import { freshFCorpus } from "../fixtures/corpus/fresh-f.ts";
import { freshICorpus } from "../fixtures/corpus/fresh-i.ts";
import { freshJCorpus } from "../fixtures/corpus/fresh-j.ts";
import { freshKCorpus } from "../fixtures/corpus/fresh-k.ts";
import { startOptions, testRegistry } from "../registry-helpers.ts";

const linux = process.platform === "linux";
const built = linux ? buildCorpus() : undefined;
afterAll(() => built?.cleanup());
const utf8 = new TextEncoder();

const PICKED = [
  "asyncio tick 100 answer 30",
  "asyncio tick 100 answer 400",
  "threadpool sleep 0",
  "node tick 0 answer 0",
  "bun tick 0 answer 0",
  "bash make (no-op step)",
  "go answer 0",
  "ncurses wait answer 0",
];
/**
 * Timers a wait does not show (a new worker thread parked until a threading.Timer is due; a one-shot
 * timerfd in an epoll set waited on with no timeout), from the first fresh part: it was looked at to
 * mend them, and is no longer held out.
 */
const PICKED_FRESH = ["python threading.Timer 200", "c epoll timerfd tick 200 answer 130"];
/**
 * From the third fresh part, looked at to mend them: a grandchild left running in the background, a
 * coprocess read through a pipe, and a program ticking on SIGALRM (a timer no wait shows) with no
 * timer in its waits, whose settles must say they cannot tell once it has been seen writing on its own.
 */
const PICKED_FRESH_C = [
  "python grandchild answers after sleep 0.2",
  "bash coproc round trip",
  "python setitimer SIGALRM tick 100 + select deadline 170",
  "c signalfd: setitimer tick 100 + timer_create 230",
];
/**
 * From the fourth fresh part, looked at to mend them: signal timers from the first input on. A main
 * thread in pause() after ualarm() waits for a timer (every answer must be on screen), and a
 * SIGEV_THREAD tick with a one-shot answer must never be claimed done, its first input included.
 */
const PICKED_FRESH_D = ["c ualarm 200 + pause", "c SIGEV_THREAD periodic 90 + one-shot 210"];
/**
 * From the sixth fresh part, looked at to mend it: a Go program listening to SIGALRM (signal.Notify)
 * that arms setitimer per key. Its first input is watched and must show the answer; later ones may
 * say they cannot tell, so only the first is checked.
 */
const PICKED_FRESH_F = ["go setitimer + signal.Notify SIGALRM one-shot 150"];
/**
 * From the ninth fresh part, looked at after its held-out run: a perl select clock with a SIGALRM
 * handler that re-arms ualarm per key (watched on its first input though it rests on a timed wait),
 * and an epoll loop on a timerfd clock that makes a one-shot timerfd per key (no grid verdict over it).
 */
const PICKED_FRESH_I = [
  "perl select clock 1000 + ualarm re-armed per key 150",
  "c timerfd clock 1000 aligned to wall time + a timerfd per key 450",
];
/**
 * From the tenth fresh part, looked at after its held-out run: a Go program whose per-key child runs
 * in a session of its own (setsid) and is reaped on SIGCHLD, with no wait of the parent's to show it;
 * and a C front end whose per-key daemon (a double fork, re-parented to init) reports over a socket.
 */
const PICKED_FRESH_J = [
  "go clock Ticker 1500 + setsid child 400 reaped by Wait4 on SIGCHLD",
  "c double-forked daemon per key reporting over a unix socket after 200",
];
/**
 * From the eleventh fresh part, looked at after its held-out run: a console whose whole loop is one
 * io_uring, answering from a TIMEOUT linked to the answer's WRITE (the work is in the ring, in no
 * syscall). Skipped where io_uring is off (kernel.io_uring_disabled, a container's seccomp).
 */
const PICKED_FRESH_K = ["c io_uring loop, TIMEOUT 200 linked to the answer's WRITE (io-wq)"];
const ioUring =
  !linux ||
  Bun.spawnSync(["sh", "-c", "cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0"])
    .stdout.toString()
    .trim() === "0";
if (!ioUring) console.warn("skipping the io_uring corpus case: io_uring is disabled on this kernel");
const cases =
  built === undefined
    ? []
    : [
        ...corpus(built).filter((c) => PICKED.includes(c.name) && !c.heldOut),
        ...freshCorpus(built).filter((c) => PICKED_FRESH.includes(c.name)),
        ...freshCCorpus(built).filter((c) => PICKED_FRESH_C.includes(c.name)),
        ...freshDCorpus(built).filter((c) => PICKED_FRESH_D.includes(c.name)),
        ...freshFCorpus(built).filter((c) => PICKED_FRESH_F.includes(c.name)),
        ...freshICorpus(built).filter((c) => PICKED_FRESH_I.includes(c.name)),
        ...freshJCorpus(built).filter((c) => PICKED_FRESH_J.includes(c.name)),
        ...freshKCorpus(built).filter((c) => ioUring && PICKED_FRESH_K.includes(c.name)),
      ];

async function inputs(c: CorpusCase, count: number): Promise<void> {
  await using registry = testRegistry();
  const session = await registry.start(startOptions(c.command, c.args, { env: c.env }));
  await waitForText(session, { pattern: c.ready, timeoutMs: 15_000, pollIntervalMs: 20, matchScreen: true });
  for (let n = 1; n <= count; n++) {
    const observed = await observe(session, () => session.write(utf8.encode(c.input(n))), {
      captureScreen: true,
      screenDetail: "full",
    });
    const block = observed.screen!;
    const answered = block.after!.text.replace(/[ \t]+$/gm, "").includes(c.answer(n));
    const claimed = block.settledBy === "idle" || block.settledBy === "periodic" || block.quiet;
    if (!answered)
      expect({ claimed, settledBy: block.settledBy }).toEqual({ claimed: false, settledBy: expect.anything() });
    if (c.class === "at-once" || c.class === "visible" || c.class === "shell")
      expect({ answered, settledBy: block.settledBy }).toEqual({ answered: true, settledBy: expect.anything() });
    if (block.settledBy === "unsure") expect(block).toMatchObject({ quiet: false });
    if (!answered)
      await waitForText(session, { pattern: c.mark(n), timeoutMs: 5000, pollIntervalMs: 10, matchScreen: true });
  }
}

describe.skipIf(!linux)("corpus programs: no premature screen claimed done", () => {
  for (const name of [
    ...PICKED,
    ...PICKED_FRESH,
    ...PICKED_FRESH_C,
    ...PICKED_FRESH_D,
    ...PICKED_FRESH_F,
    ...PICKED_FRESH_I,
    ...PICKED_FRESH_J,
    ...PICKED_FRESH_K,
  ]) {
    const c = cases.find((x) => x.name === name);
    test.skipIf(c === undefined || Bun.which(c.command) === null)(name, async () => {
      await inputs(c!, PICKED_FRESH_F.includes(name) ? 1 : 3);
    });
  }
});
