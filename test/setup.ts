// Preloaded by bunfig.toml: keep the server's stderr log out of test output unless asked for.
process.env.TUI_TESTER_LOG ??= "silent";
