/** The old names of input-reply.ts and wait-lines.ts, kept while script/steps.ts still imports them. */
export { inputReply as runObserved } from "./input-reply.ts";
export { waitLines as matchLines } from "./wait-lines.ts";
