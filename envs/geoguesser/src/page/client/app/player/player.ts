/**
 * The run page's video player, as a feature of the open episode: a play slot
 * under the episode's heading, the player started at a moment when the address
 * names one (`#<episode_id>/t=<seconds>`), the transcript's current turn
 * following the player, and a click on a turn's card seeking to its start.
 * The player itself (../../../player/) loads only on the first play.
 */
import type { PageEpisode } from "../../../model.ts";
import type { PageState } from "../../state/store.ts";
import type { DetailHooks } from "../detail/view.ts";
import { currentPlayer, playerSlot, startPlayer } from "../../../player/hook.ts";
import type { PlaySource } from "../../../player/video.ts";

/** `sourceOf`: where an episode's video comes from (board pages: its chunk's episode; a live episode: its data file); default the run page's table. */
export function playerHooks(root: HTMLElement, markTurn: (turn: number | null) => void, sourceOf?: (e: PageEpisode) => PlaySource | undefined): DetailHooks {
  let episode: PageEpisode | null = null;
  root.addEventListener("click", (ev) => {
    const card = (ev.target as HTMLElement).closest<HTMLElement>(".turn");
    if (card?.dataset.turn && episode) currentPlayer(episode.id)?.seekTurn(Number(card.dataset.turn));
  });
  const onTurn = (t: number | null) => markTurn(t);
  return {
    shown(e: PageEpisode, into: HTMLElement, s: PageState, fresh: boolean) {
      episode = e;
      if (fresh) {
        const slot = playerSlot(e.id, { onTurn, source: sourceOf?.(e) });
        if (slot) into.insertBefore(slot, into.children[1] ?? null);
      }
      if (s.route.kind !== "moment") return;
      const slot = into.querySelector<HTMLElement>(".player-slot");
      if (!slot) return;
      startPlayer(slot, e.id, { at: s.route.t, onTurn, source: sourceOf?.(e) });
      slot.scrollIntoView({ block: "start" });
    },
  };
}
