// Types for the `linebreak` package (UAX #14; it ships none). A break's position is where the
// next line may start; `required` marks mandatory breaks (newlines).
declare module "linebreak" {
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): { position: number; required: boolean } | null;
  }
}
