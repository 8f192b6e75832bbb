/** Midnight Commander with xterm mouse (-x): clicks on the menu bar and on the F-key bar work. */
import { expect, test } from "bun:test";
import { launch } from "tui-tester";
import "tui-tester/expect";
import { describeApp, useTempDirs } from "./helpers.ts";

describeApp(
  "mc",
  () => {
    const tempDir = useTempDirs();

    test("click Left opens its menu, F10 closes it, click 10Quit exits 0", async () => {
      // a private HOME: mc writes its config and history there
      const home = tempDir();
      const env = { HOME: home, XDG_CONFIG_HOME: `${home}/.config`, TERM: "xterm-256color" };
      await using mc = await launch("mc", { args: ["-x", "--nosubshell"], cwd: home, env, cols: 100, rows: 30 });
      await mc.waitForText("10Quit");
      await mc.waitForText("Left");
      expect(mc.modes().mouseTracking).not.toBe("none");
      expect(mc.modes().mouseEncoding).toBe("sgr");

      const menu = await mc.mouse({ action: "click", text: "Left" }, { waitFor: "Listing format" });
      expect(menu.at).toMatchObject({ row: 0 });
      await mc.press("F10");
      await expect(mc).not.toShowText("Listing format");

      await mc.mouse({ action: "click", text: "10Quit" }, { captureScreen: false });
      expect(await mc.waitForExit({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0, signal: null });
    });
  },
  "mc (Midnight Commander)",
);
