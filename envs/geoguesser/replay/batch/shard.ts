/** `--shard i/n` for a batch: the core's split (replay/batch/shard.ts), balanced by frame count. */
export { assignShards, parseShard, type Weighted } from "../../../../replay/batch/shard.ts";
