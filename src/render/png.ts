/** SVG -> PNG with resvg (WebAssembly build, so one code path on every target); fonts from fonts.ts. */
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import { RESVG_WASM } from "./assets.ts";
import { fontsFor } from "./fonts.ts";
import { FONT_FAMILY } from "./svg.ts";

let ready: Promise<void> | undefined;

/** Compile the wasm module once per process. */
function init(): Promise<void> {
  ready ??= (async () => initWasm(await Bun.file(RESVG_WASM).arrayBuffer()))();
  ready.catch(() => (ready = undefined));
  return ready;
}

/** RGBA pixels of an SVG, for encoders that want raw frames (GIF). */
export async function svgToPixels(
  svg: string,
  scale = 1,
  fonts: readonly string[] = [],
): Promise<{ pixels: Uint8Array; width: number; height: number }> {
  return render(svg, scale, fonts, (image) => ({
    pixels: new Uint8Array(image.pixels),
    width: image.width,
    height: image.height,
  }));
}

/** `fonts`: font files besides the bundled ones (TUI_TESTER_FONTS). */
export async function svgToPng(
  svg: string,
  scale = 1,
  fonts: readonly string[] = [],
): Promise<{ png: Uint8Array; width: number; height: number }> {
  return render(svg, scale, fonts, (image) => ({ png: image.asPng(), width: image.width, height: image.height }));
}

type RenderedImage = ReturnType<InstanceType<typeof Resvg>["render"]>;

async function render<T>(
  svg: string,
  scale: number,
  fonts: readonly string[],
  take: (image: RenderedImage) => T,
): Promise<T> {
  await init();
  const fontBuffers = await fontsFor(svg, fonts);
  const resvg = new Resvg(svg, {
    // No system fonts beyond fonts.ts's choice: the same pixels on machines with the same fonts.
    font: { fontBuffers, defaultFontFamily: FONT_FAMILY, monospaceFamily: FONT_FAMILY },
    fitTo: { mode: "zoom", value: scale },
    shapeRendering: 1,
  });
  try {
    const image = resvg.render();
    try {
      return take(image);
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}
