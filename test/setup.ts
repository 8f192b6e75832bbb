// Preloaded by bunfig.toml for every test file: keep the server's stderr log out of test output.
// (The 30 s per-test ceiling is `bun test --timeout 30000` in package.json: setDefaultTimeout in a
// preload only reaches the first test file.)
process.env.TUI_TESTER_LOG ??= "silent";
