/** The panorama view: the generator's frame file for this video frame, blended during a move. */
import React from "react";
import { Img, staticFile } from "remotion";
import type { ViewportFrame } from "../lookup.ts";
import { C } from "../theme.ts";

export function frameUrl(framesDir: string, file: string): string {
  return staticFile(framesDir ? `${framesDir}/${file}` : file);
}

export const Viewport: React.FC<{ framesDir: string; view: ViewportFrame; next: string | null; width: number; height: number }> = ({
  framesDir,
  view,
  next,
  width,
  height,
}) => {
  const img: React.CSSProperties = { position: "absolute", left: 0, top: 0, width, height, display: "block" };
  return (
    <div data-scene="viewport" style={{ position: "relative", width, height, background: C.panel, overflow: "hidden" }}>
      {view.file ? <Img src={frameUrl(framesDir, view.file)} style={img} /> : null}
      {view.blend ? <Img src={frameUrl(framesDir, view.blend.file)} style={{ ...img, opacity: view.blend.opacity }} /> : null}
      {/* The next video frame's file, fetched now (invisible, never waited for) so its <Img> loads from cache.
          A plain <img> on purpose: Remotion's <Img> would hold the frame until it loads. */}
      {next && next !== view.file && next !== view.blend?.file ? (
        // eslint-disable-next-line @remotion/warn-native-media-tag
        <img src={frameUrl(framesDir, next)} alt="" style={{ position: "absolute", width: 1, height: 1, opacity: 0 }} />
      ) : null}
    </div>
  );
};
