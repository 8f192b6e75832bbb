/**
 * TUI_TESTER_FONTS is a server's setting, not the process's: two registries (two servers, or a server and the
 * library) in one process each draw their sessions' pictures with their own extra fonts.
 */
import { expect, test } from "bun:test";
import { EMOJI_FONT_FILE, FONT_FILES } from "../../src/render/assets.ts";
import { fontFilesFor } from "../../src/render/fonts.ts";
import { startOptions, testRegistry } from "../registry-helpers.ts";

// real font files, standing in for the extra fonts a user would name
const [, , , , sans] = FONT_FILES as [string, string, string, string, string];

test("the extra fonts a picture gets are the ones it is given", () => {
  const svg = '<text font-weight="bold">plain</text>';
  expect(fontFilesFor(svg)).not.toContain(EMOJI_FONT_FILE);
  expect(fontFilesFor(svg, [EMOJI_FONT_FILE])).toContain(EMOJI_FONT_FILE);
  // another caller's fonts do not leak into the next picture
  expect(fontFilesFor(svg)).not.toContain(EMOJI_FONT_FILE);
});

test("each registry hands its own fonts to the sessions it starts", async () => {
  await using emoji = testRegistry({ fonts: [EMOJI_FONT_FILE] });
  await using plain = testRegistry({ fonts: [sans] });
  const a = await emoji.start(startOptions("sh", ["-c", "sleep 5"]));
  const b = await plain.start(startOptions("sh", ["-c", "sleep 5"]));
  expect(a.config.fonts).toEqual([EMOJI_FONT_FILE]);
  expect(b.config.fonts).toEqual([sans]);
  expect(fontFilesFor("<text>x</text>", a.config.fonts)).toContain(EMOJI_FONT_FILE);
  expect(fontFilesFor("<text>x</text>", b.config.fonts)).not.toContain(EMOJI_FONT_FILE);
});
