/**
 * Reads episode records as a stream, from any recording format (eval
 * episodes, GRPO training rollouts, example-rollout folders, sweeps); see
 * src/formats/. Kept here as the entry point the commands import.
 */
export { readEpisodeRecords, recordProblem, type EpisodeRecord } from "../formats/records.ts";
