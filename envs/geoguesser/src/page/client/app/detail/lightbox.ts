/**
 * Views enlarged: a click (or Enter) on a view, or `v` on the current turn,
 * shows it at 640 px, the size the model saw it at, in a modal dialog that
 * Escape or a click closes. Images are the embedded bytes scaled (their
 * embedded size is said); board reprojections are drawn again at 640 px
 * from the panorama's copy.
 */
import { el } from "../../../../../../../src/page/client/dom.ts";

const SIZE = 640;

let dialog: HTMLDialogElement | null = null;

function box(): HTMLDialogElement {
  if (dialog) return dialog;
  dialog = el("dialog", "lightbox") as HTMLDialogElement;
  dialog.id = "gr-lightbox";
  dialog.addEventListener("click", () => dialog!.close());
  document.body.appendChild(dialog);
  return dialog;
}

export function enlarge(view: HTMLElement): void {
  const d = box();
  const frame = el("figure");
  let note = "";
  if (view instanceof HTMLImageElement) {
    const img = document.createElement("img");
    img.src = view.currentSrc || view.src;
    img.alt = view.alt;
    img.width = SIZE;
    img.height = SIZE;
    frame.appendChild(img);
    if (view.naturalWidth && view.naturalWidth < SIZE) note = ` · embedded at ${view.naturalWidth} px, shown at ${SIZE}`;
  } else if (view instanceof HTMLCanvasElement) {
    const c = document.createElement("canvas");
    c.width = SIZE;
    c.height = SIZE;
    c.className = "view";
    c.getContext("2d")!.drawImage(view, 0, 0, SIZE, SIZE);
    frame.appendChild(c);
    note = ` · browser reprojection drawn at ${view.width} px, shown at ${SIZE}: approximate, not the verified bytes`;
  } else return;
  // A drifted view says so where it is looked at closely, naming its turn.
  const media = view.closest<HTMLElement>(".media");
  if (media?.dataset.check === "mismatch")
    frame.appendChild(
      el(
        "p",
        "drift-note",
        `Turn ${media.dataset.turn} drifted (mismatch): this re-render does not hash to the recorded digest, so it is not the image the model saw (the record holds only its hash)`,
      ),
    );
  frame.appendChild(el("figcaption", null, `${view.getAttribute("aria-label") ?? (view as HTMLImageElement).alt ?? "view"}${note} · Esc or click to close`));
  d.replaceChildren(frame);
  d.dataset.view = view.closest(".turn")?.id ?? "";
  if (!d.open) d.showModal();
}

/** Clicks and Enter on any `.zoomable` view enlarge it. */
export function bindLightbox(doc: Document): void {
  doc.addEventListener("click", (ev) => {
    const v = (ev.target as HTMLElement).closest?.(".zoomable") as HTMLElement | null;
    if (v) enlarge(v);
  });
  doc.addEventListener("keydown", (ev) => {
    const t = ev.target as HTMLElement;
    if (ev.key === "Enter" && t.classList?.contains("zoomable")) enlarge(t);
  });
}

export const lightboxOpen = (): boolean => dialog?.open === true;
