/** What marks a slideshow (recorded images, never re-rendered) wherever it is shown: its label, its pill and its sentence. */
import { C } from "../scene/theme.ts";
import { Draw, font, lineBox } from "../scene/draw.ts";

export const SLIDESHOW_LABEL = "RECORDED IMAGES · NOT A REPLAY";

export const SLIDESHOW_PROVENANCE = "These are the images the environment recorded, shown as they were saved: nothing is re-rendered, and nothing is verified.";

/** The header's pill, right-aligned at `right`, centred on `mid`; returns its left edge. */
export function slideshowPill(d: Draw, right: number, mid: number, u: number): number {
  const pf = font("sans", 13 * u, 800);
  const h = lineBox(pf.size) + 8 * u;
  const p = d.pill(SLIDESHOW_LABEL, right, mid - h / 2, pf, {
    fill: C.slideshow,
    color: C.white,
    padX: 12 * u,
    padY: 4 * u,
    r: 5 * u,
    spacing: 1.5 * u,
    anchor: "right",
  });
  return p.x;
}
