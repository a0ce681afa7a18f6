/** Colours, fonts and the design grid shared by every scene. Layout is designed at 720 px height and scaled. */
export const DESIGN_HEIGHT = 720;
export const SANS = "Inter, sans-serif";
export const MONO = "'JetBrains Mono', monospace";

export const C = {
  bg: "#0e1116",
  panel: "#161b22",
  panelEdge: "#262d37",
  text: "#e6e9ee",
  dim: "#8b95a3",
  faint: "#5a6472",
  accent: "#e8b54a",
  ok: "#5fb37a",
  fail: "#e0584f",
  guess: "#c4332a", // the environment's reveal map colours
  truth: "#3f7a55",
  sea: "#15283c",
  land: "#3d4956",
  border: "#566373",
  unverified: "#b3261e",
  slideshow: "#2f5d8a", // recorded images, not a replay: informative, not an alarm
};
