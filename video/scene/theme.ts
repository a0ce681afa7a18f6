/** Colours and the design grid shared by every scene. Layout is designed at 720 px height and scaled. */
export const DESIGN_HEIGHT = 720;

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
  /** The truth and guess colours brightened for text and dots on the dark background. */
  truthText: "#5fb780",
  truthDot: "#65c388",
  guessDot: "#ff5243",
  sea: "#15283c",
  land: "#3d4956",
  border: "#566373",
  unverified: "#b3261e",
  slideshow: "#2f5d8a", // recorded images, not a replay: informative, not an alarm
  slideshowText: "#4b95dd",
  code: "#0b0e13",
  white: "#ffffff",
};

/** A's and B's colours on a two-up video, and brightened for text. */
export const SIDE_COLOURS = ["#4f8fe8", "#e8834a"] as const;
export const SIDE_TEXT = ["#5ba5ff", "#ff9755"] as const;

/** The panel colour at alpha 0..1, for fades over panels. */
export const panelAlpha = (a: number) => `rgba(22,27,34,${a})`;

/**
 * A GRPO group's siblings, in sibling order: A's and B's colours first (a group of two reads
 * like a two-up), then six more hues apart from the truth's green and the guess's red. Past
 * eight they repeat; every tile and pin also carries its sibling's number.
 */
export const SIBLING_COLOURS = [...SIDE_COLOURS, "#b36ae2", "#3fb9b0", "#d9c24a", "#e26aa8", "#8fa0b5", "#6f7be8"] as const;
export const siblingColour = (i: number): string => SIBLING_COLOURS[i % SIBLING_COLOURS.length];
