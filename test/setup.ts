// Preloaded by bunfig.toml for every test file: keep the server's stderr log out of test output, both
// for servers the tests spawn (they inherit the variable) and for the modules they import in-process.
// (The 30 s per-test ceiling is `bun test --timeout 30000` in package.json: setDefaultTimeout in a
// preload only reaches the first test file.)
import { parseConfig } from "../src/config.ts";
import { setLogLevel } from "../src/util/log.ts";

process.env.TUI_TESTER_LOG ??= "silent";
setLogLevel(parseConfig(process.env).log);
