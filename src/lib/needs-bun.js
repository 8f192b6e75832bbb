// What Node.js (or any runtime but Bun) gets for `import "tui-tester"`: the library drives PTYs
// through Bun.Terminal and Bun.spawn, and its matchers extend bun:test, none of which Node has.
throw new Error(
  "tui-tester's library needs Bun (https://bun.sh): it drives terminals with Bun.Terminal and Bun.spawn and its matchers extend bun:test. " +
    "Run your tests with `bun test`. (The tui-tester command itself works from npx too: it fetches Bun.)",
);
