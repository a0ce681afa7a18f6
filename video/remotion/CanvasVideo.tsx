/**
 * A composition that is one <canvas>: the frame's scene, painted by the same
 * painter the native engine uses. The text plan in the props gives the
 * lines (laid out in Node); images are the frame files under the public dir.
 */
import React, { useLayoutEffect, useMemo, useRef } from "react";
import { cancelRender, continueRender, delayRender, staticFile, useCurrentFrame, useVideoConfig } from "remotion";
import { paint } from "../paint.ts";
import { sceneAt, type VideoSpec } from "../compositions.ts";
import { planLayouter } from "../text/layouter.ts";
import { cssFont } from "../text/fonts.ts";
import type { Measure } from "../text/lines.ts";
import { bundledCell } from "./atlas-bundled.ts";

const images = new Map<string, Promise<HTMLImageElement>>();

function loadImage(src: string): Promise<HTMLImageElement> {
  let p = images.get(src);
  if (!p) {
    p = new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error(`could not load frame file ${src}`));
      img.src = staticFile(src);
    });
    images.set(src, p);
    if (images.size > 64) images.delete(images.keys().next().value as string);
  }
  return p;
}

/** The browser's own measurement: only for layouts the plan lacks (Studio at another size). */
function browserMeasure(): Measure {
  const ctx = document.createElement("canvas").getContext("2d")!;
  return (text, font) => {
    ctx.font = cssFont(font);
    return ctx.measureText(text).width;
  };
}

export const CanvasVideo: React.FC<{ spec: VideoSpec }> = ({ spec }) => {
  const frame = useCurrentFrame();
  const { width, height } = useVideoConfig();
  const ref = useRef<HTMLCanvasElement>(null);
  const tx = useMemo(
    () =>
      planLayouter(spec.props.text ?? {}, browserMeasure(), () =>
        console.warn("georeplay: text laid out by the browser (no plan for this size): lines may differ from a render"),
      ),
    [spec],
  );
  useLayoutEffect(() => {
    const scene = sceneAt(spec, frame, tx);
    const srcs = scene.prims.flatMap((p) => (p.t === "image" ? [p.src] : []));
    const handle = delayRender(`painting frame ${frame}`);
    Promise.all(srcs.map((s) => loadImage(s).then((img) => [s, img] as const)))
      .then((loaded) => {
        const ctx = ref.current?.getContext("2d");
        if (ctx) {
          const byName = new Map(loaded);
          paint(ctx, scene, { image: (s) => byName.get(s) ?? null, path2d: () => new Path2D(), cell: bundledCell });
        }
        continueRender(handle);
      })
      .catch((e) => cancelRender(e));
  }, [spec, frame, tx]);
  return <canvas ref={ref} width={width} height={height} style={{ width, height, display: "block" }} />;
};
