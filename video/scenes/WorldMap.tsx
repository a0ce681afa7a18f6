/**
 * A real world map drawn offline: Natural Earth via world-atlas, projected
 * with d3-geo. Paths depend only on the framing and size, so they are
 * computed once per framing and cached for every frame that shows it.
 */
import React from "react";
import { geoArea, geoMercator, geoPath, geoInterpolate, type GeoProjection } from "d3-geo";
import { feature, mesh } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import countries10m from "world-atlas/countries-10m.json" with { type: "json" };
import countries50m from "world-atlas/countries-50m.json" with { type: "json" };
import countries110m from "world-atlas/countries-110m.json" with { type: "json" };
import { atlasFor, type MapFrame } from "../geo-frame.ts";
import { C } from "../theme.ts";

type LatLon = [number, number];
type Atlas = "10m" | "50m" | "110m";

const TOPOLOGIES: Record<Atlas, unknown> = { "10m": countries10m, "50m": countries50m, "110m": countries110m };

interface AtlasShapes {
  land: GeoJSON.FeatureCollection;
  borders: GeoJSON.MultiLineString;
}
const shapesCache = new Map<Atlas, AtlasShapes>();

function shapes(atlas: Atlas): AtlasShapes {
  let s = shapesCache.get(atlas);
  if (!s) {
    const topo = TOPOLOGIES[atlas] as Topology<{ countries: GeometryCollection }>;
    s = {
      land: rewound(feature(topo, topo.objects.countries) as GeoJSON.FeatureCollection),
      borders: mesh(topo, topo.objects.countries, (a, b) => a !== b),
    };
    shapesCache.set(atlas, s);
  }
  return s;
}

/**
 * d3-geo reads ring winding on the sphere: a few tiny islands in the 10m data
 * (the Maldives) come out wound the other way and would cover the whole globe.
 * A polygon whose outer ring encloses more than a hemisphere is reversed.
 */
function rewound(fc: GeoJSON.FeatureCollection): GeoJSON.FeatureCollection {
  const fix = (poly: GeoJSON.Position[][]) =>
    geoArea({ type: "Polygon", coordinates: [poly[0]] }) > 2 * Math.PI ? poly.map((ring) => [...ring].reverse()) : poly;
  return {
    ...fc,
    features: fc.features.map((f) => {
      const g = f.geometry;
      if (g?.type === "Polygon") return { ...f, geometry: { ...g, coordinates: fix(g.coordinates) } };
      if (g?.type === "MultiPolygon") return { ...f, geometry: { ...g, coordinates: g.coordinates.map(fix) } };
      return f;
    }),
  };
}

/** Mercator centred on the frame, 2 * halfWidthDeg degrees of longitude across the width. */
export function mapProjection(frame: MapFrame, width: number, height: number): GeoProjection {
  const scale = width / ((2 * frame.halfWidthDeg * Math.PI) / 180);
  return geoMercator()
    .center([frame.center[1], frame.center[0]])
    .scale(scale)
    .translate([width / 2, height / 2])
    .clipExtent([
      [-2, -2],
      [width + 2, height + 2],
    ]);
}

const pathCache = new Map<string, { land: string; borders: string }>();

function basePaths(frame: MapFrame, width: number, height: number): { land: string; borders: string } {
  const key = `${frame.center[0]},${frame.center[1]},${frame.halfWidthDeg},${width}x${height}`;
  let p = pathCache.get(key);
  if (!p) {
    const s = shapes(atlasFor(frame));
    const path = geoPath(mapProjection(frame, width, height));
    p = { land: path(s.land) ?? "", borders: path(s.borders) ?? "" };
    pathCache.set(key, p);
  }
  return p;
}

export interface Marker {
  at: LatLon;
  color: string;
  label?: string;
  labelBelow?: boolean; // so two close markers' labels do not collide
  scale?: number; // 0..1 pop-in
}

export const WorldMap: React.FC<{
  frame: MapFrame;
  width: number;
  height: number;
  markers: Marker[];
  /** Dashed great-circle line from `from` towards `to`, drawn up to `progress` (0..1). */
  line?: { from: LatLon; to: LatLon; progress: number } | null;
  unit: number; // px per design px
}> = ({ frame, width, height, markers, line, unit }) => {
  const base = basePaths(frame, width, height);
  const projection = mapProjection(frame, width, height);
  const path = geoPath(projection);
  let linePath = "";
  if (line && line.progress > 0) {
    const interp = geoInterpolate([line.from[1], line.from[0]], [line.to[1], line.to[0]]);
    const n = 64;
    const coords: [number, number][] = [];
    for (let i = 0; i <= n; i++) coords.push(interp((i / n) * Math.min(1, line.progress)));
    linePath = path({ type: "LineString", coordinates: coords }) ?? "";
  }
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} style={{ display: "block", background: C.sea }}>
      <path d={base.land} fill={C.land} stroke="none" />
      <path d={base.borders} fill="none" stroke={C.border} strokeWidth={0.8 * unit} />
      {linePath ? (
        <path d={linePath} fill="none" stroke="#f4f1ea" strokeWidth={2.5 * unit} strokeDasharray={`${8 * unit} ${6 * unit}`} strokeLinecap="round" />
      ) : null}
      {markers.map((m, i) => {
        const xy = projection([m.at[1], m.at[0]]);
        if (!xy) return null;
        const [x, y] = clampToView(xy, width, height, 10 * unit);
        const s = m.scale ?? 1;
        if (s <= 0) return null;
        return (
          <g key={i} transform={`translate(${x} ${y}) scale(${s})`}>
            <circle r={11 * unit} fill={m.color} stroke="#fff" strokeWidth={3 * unit} />
            {m.label ? (
              <text
                y={(m.labelBelow ? 30 : -18) * unit}
                textAnchor="middle"
                fill="#fff"
                fontSize={15 * unit}
                fontWeight={600}
                fontFamily="Inter, sans-serif"
                style={{ paintOrder: "stroke" }}
                stroke="rgba(0,0,0,0.7)"
                strokeWidth={4 * unit}
              >
                {m.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
};

/** A marker outside the framing sits on the edge, pointing the way to it. */
function clampToView([x, y]: [number, number], w: number, h: number, margin: number): [number, number] {
  return [Math.min(w - margin, Math.max(margin, x)), Math.min(h - margin, Math.max(margin, y))];
}
