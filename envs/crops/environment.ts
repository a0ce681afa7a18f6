/** crops, the detection gym: crops of a still image, boxes drawn in view per-mille, scored by GIoU credit. */
import type { Environment } from "../environment.ts";

export const crops: Environment = {
  name: "crops",
  title: "crops (detection gym)",
  verify: async (inputs, o) => (await import("./src/verify-command.ts")).verifyCropsCommand(inputs, o),
  frames: async (inputs, o) => (await import("./src/frames-command.ts")).cropsFramesCommand(inputs, o),
  report: async (inputs, o) => (await import("./src/report-command.ts")).reportCommand(inputs, o),
  render: async (inputs, o, command) => (await import("./src/render-command.ts")).renderCropsCommand(inputs, o, command),
  page: async (inputs, o) => (await import("./src/page-command.ts")).writeCropsPage(inputs, o),
  serve: async (o) => (await import("./src/serve-command.ts")).serveCrops(o),
};
