/**
 * Imported first by main.ts: in test mode the per-session server log would drown the test
 * report, so it defaults to silent (TUI_TESTER_LOG=on brings it back). This must run before
 * util/log.ts is evaluated, which reads the variable once.
 */
if (process.argv[2] === "test") process.env.TUI_TESTER_LOG ??= "silent";

export {};
