import { expect, test } from "bun:test";
import { launch } from "tui-tester";
import "tui-tester/expect";

test.skipIf(!Bun.which("htop"))("htop: F2 opens Setup, F10 leaves it, q quits", async () => {
  await using htop = await launch("htop", { cols: 120, rows: 40 });
  await htop.waitForText("Load average");
  await htop.press("F2", { waitFor: /Categories[\s\S]*F10Done/ });
  await expect(htop).toHaveHighlight("Display options");
  await htop.press("F10", { waitFor: "F2Setup" });
  await expect(htop).not.toShowText("Display options");
  await htop.press("q");
  await expect(htop).toHaveExited({ code: 0 });
});
