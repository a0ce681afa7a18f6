/**
 * Remotion root, for Studio previews and `--engine remotion`: one composition per composition
 * the environments registered (video/env-compositions.ts; the entry, index.ts, registers them),
 * under the same id. Each is one <canvas> painted from the same scenes the native engine paints;
 * duration, fps and size come from the props as the composition says. The Studio parts (schema,
 * placeholder, a preview from the public dir) are the environment's, when it registered them.
 */
import React, { useMemo } from "react";
import { Composition, getStaticFiles, type CalculateMetadataFunction } from "remotion";
import { registeredCompositions, type EnvComposition, type StudioComposition, type VideoProps } from "../env-compositions.ts";
import { loadFonts } from "./fonts.ts";
import { CanvasVideo } from "./CanvasVideo.tsx";

loadFonts();

const components = new Map<string, React.FC<VideoProps>>();

/** The component that paints composition `id` (one per id, so Remotion sees a stable component). */
export function compositionComponent(id: string): React.FC<VideoProps> {
  let c = components.get(id);
  if (!c) {
    const Video: React.FC<VideoProps> = (props) => {
      const spec = useMemo(() => ({ composition: id, props }), [props]);
      return <CanvasVideo spec={spec} />;
    };
    Video.displayName = id;
    c = Video;
    components.set(id, c);
  }
  return c;
}

const readJson = async (src: string): Promise<unknown> => (await fetch(src)).json();

/** Duration, fps and size from the props (the Studio's preview first, when the environment has one). */
function metadata(c: EnvComposition, studio: StudioComposition | null): CalculateMetadataFunction<VideoProps> {
  return async ({ props }) => {
    // Studio lists every composition without props; one registered without Studio parts (no placeholder, no
    // preview) has nothing to measure until a render passes its props: it lists as one frame at the default size.
    if (!studio && Object.keys(props ?? {}).length === 0) return { durationInFrames: 1, fps: 30, width: 1280, height: 720 };
    const p = studio?.preview ? await studio.preview(props, getStaticFiles(), readJson) : props;
    const { width, height } = c.size(p);
    return { durationInFrames: c.frames(p), fps: c.fps(p), width, height, props: p };
  };
}

export const RemotionRoot: React.FC = () => (
  <>
    {registeredCompositions().map(({ id, composition, studio }) => {
      const placeholder = studio?.placeholder;
      return (
        <Composition
          key={id}
          id={id}
          component={compositionComponent(id)}
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an environment's zod schema, opaque to core
          {...(studio?.schema ? { schema: studio.schema as any } : {})}
          defaultProps={placeholder ?? {}}
          calculateMetadata={metadata(composition, studio)}
          durationInFrames={placeholder ? composition.frames(placeholder) : 1}
          fps={placeholder ? composition.fps(placeholder) : 30}
          width={1280}
          height={720}
        />
      );
    })}
  </>
);
