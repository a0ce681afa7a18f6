/** The page's defaults `page --help` says, in their own module so it loads no image or page code. */

/** Longest side of the page's embedded views by default, px. */
export const DEFAULT_IMAGE_SIZE = 320;

/**
 * Default budget of a one-file board page's exact views, MB, whatever the rest of the page takes
 * (--max-mb unset): zooms first, then the others. The held-out-size board (640 episodes, 1,047
 * distinct verified views, 204 of them zooms) keeps every zoom exact with it: its zooms take
 * 17.6 MB of base64, the other 843 views would take 103 MB more. Under the older default (the
 * whole page in 12 MB) its 22.7 MB of words, panoramas and maps left the views nothing: 0 of
 * 1,047 exact. The folder form (`-o DIR/`) has no budget and keeps every view.
 */
export const DEFAULT_VIEWS_MB = 24;
