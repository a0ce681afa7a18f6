/** `v`: enlarge the current turn's view (the marked turn of the open episode). */
export function enlargeKey(doc: Document, enlarge: (v: HTMLElement) => void): void {
  const v = doc.querySelector<HTMLElement>("#gr-detail .turn.current .zoomable");
  if (v) enlarge(v);
}
