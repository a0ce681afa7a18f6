/** Longest side of the page's embedded views by default, px (its own module so `page --help` loads no image code). */
export const DEFAULT_IMAGE_SIZE = 320;
