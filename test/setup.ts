// Preloaded by bunfig.toml for every test file.
import { setDefaultTimeout } from "bun:test";

// Keep the server's stderr log out of test output unless asked for.
process.env.TUI_TESTER_LOG ??= "silent";
// Real PTY sessions on a loaded 2-core machine: generous per-test ceiling; tests wait on conditions.
setDefaultTimeout(30_000);
