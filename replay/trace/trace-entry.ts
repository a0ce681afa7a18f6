/** The trace pane's turn, for every environment (browser-safe): what the model said and what it was told. */
import { z } from "zod";

/** One turn as the trace pane shows it. All strings are untrusted model/environment text. */
export const TraceEntry = z.object({
  turn: z.number().int(),
  status: z.string(), // ok | unparseable | provider_error | invalid_action: ... | forced_guess
  failed: z.boolean(), // never reached the environment, or the environment rejected it
  actionName: z.string().nullable(), // look, zoom, move, place_pin, ... (null when nothing parsed)
  toolCall: z.string().nullable(), // e.g. look(heading_deg=90, fov_deg=90)
  reply: z.string().nullable(),
  reasoning: z.string().nullable(),
  feedback: z.string().nullable(),
  tokensIn: z.number().nullable(),
  tokensOut: z.number().nullable(),
  latencyS: z.number().nullable(),
  errors: z.array(z.string()),
});
export type TraceEntry = z.infer<typeof TraceEntry>;
