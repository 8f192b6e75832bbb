import { expect, test } from "bun:test";
import { encodeMouse, reported, type MouseEvent } from "../../src/mouse/encode.ts";

const ev = (over: Partial<MouseEvent>): MouseEvent => ({
  kind: "press",
  button: "left",
  row: 4,
  col: 9,
  shift: false,
  alt: false,
  ctrl: false,
  buttonHeld: false,
  ...over,
});
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const str = (b: Uint8Array) => new TextDecoder().decode(b);

test("SGR 1006: press M, release m with the button kept, 1-based coords, modifiers", () => {
  expect(str(encodeMouse("vt200", "sgr", ev({})))).toBe("\x1b[<0;10;5M");
  expect(str(encodeMouse("vt200", "sgr", ev({ kind: "release", button: "right" })))).toBe("\x1b[<2;10;5m");
  expect(str(encodeMouse("vt200", "sgr", ev({ shift: true, alt: true, ctrl: true })))).toBe("\x1b[<28;10;5M");
  expect(str(encodeMouse("any", "sgr", ev({ kind: "motion" })))).toBe("\x1b[<35;10;5M");
  expect(str(encodeMouse("drag", "sgr", ev({ kind: "motion", buttonHeld: true })))).toBe("\x1b[<32;10;5M");
  expect(str(encodeMouse("vt200", "sgr", ev({ kind: "wheel_up" })))).toBe("\x1b[<64;10;5M");
  expect(str(encodeMouse("vt200", "sgr", ev({ kind: "wheel_down" })))).toBe("\x1b[<65;10;5M");
});

test("default encoding: CSI M then three bytes of value + 32; release is button 3", () => {
  expect(hex(encodeMouse("vt200", "default", ev({})))).toBe("1b5b4d" + "20" + "2a" + "25");
  expect(hex(encodeMouse("vt200", "default", ev({ kind: "release" })))).toBe("1b5b4d" + "23" + "2a" + "25");
  // beyond 95 the byte is > 0x7f and must not be UTF-8 encoded
  expect(hex(encodeMouse("vt200", "default", ev({ col: 199 })))).toBe("1b5b4d20e825");
  expect(() => encodeMouse("vt200", "default", ev({ col: 300 }))).toThrow(/223/);
});

test("UTF-8 1005, urxvt 1015 and SGR-pixels 1016", () => {
  expect(str(encodeMouse("vt200", "utf8", ev({ col: 199 })))).toBe("\x1b[M \u00e8%");
  expect(str(encodeMouse("vt200", "urxvt", ev({})))).toBe("\x1b[32;10;5M");
  expect(str(encodeMouse("vt200", "sgr-pixels", ev({ row: 0, col: 0 })))).toBe("\x1b[<0;5;9M");
});

test("X10 reports presses only and no modifiers; motion needs 1002/1003", () => {
  expect(reported("x10", ev({ kind: "release" }))).toBe(false);
  expect(str(encodeMouse("x10", "default", ev({ ctrl: true })))).toBe("\x1b[M *%");
  expect(reported("vt200", ev({ kind: "motion", buttonHeld: true }))).toBe(false);
  expect(reported("drag", ev({ kind: "motion", buttonHeld: false }))).toBe(false);
  expect(reported("drag", ev({ kind: "motion", buttonHeld: true }))).toBe(true);
  expect(reported("any", ev({ kind: "motion" }))).toBe(true);
  expect(reported("none", ev({}))).toBe(false);
});
