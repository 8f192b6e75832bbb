/** Decoding an animated GIF in tests (omggif): every frame composited onto the canvas, as a viewer shows it. */
// @ts-expect-error omggif ships no types
import { GifReader } from "omggif";
import { PNG } from "pngjs";

export interface GifFrames {
  width: number;
  height: number;
  /** Composited RGBA of each frame and its delay in ms. */
  frames: { rgba: Uint8Array; delayMs: number }[];
}

export function decodeGif(bytes: Uint8Array): GifFrames {
  const reader = new GifReader(Buffer.from(bytes));
  const { width, height } = reader as { width: number; height: number };
  const canvas = new Uint8Array(width * height * 4);
  const frames: GifFrames["frames"] = [];
  for (let i = 0; i < reader.numFrames(); i++) {
    // decodeAndBlitFrameRGBA leaves transparent pixels as they were: exactly "keep the previous frame".
    reader.decodeAndBlitFrameRGBA(i, canvas);
    frames.push({ rgba: canvas.slice(), delayMs: reader.frameInfo(i).delay * 10 });
  }
  return { width, height, frames };
}

export function rgbaToPng(rgba: Uint8Array, width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  png.data = Buffer.from(rgba);
  return PNG.sync.write(png);
}
