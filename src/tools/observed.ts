/** The old names of input-reply.ts, kept while script/steps.ts still imports them. */
export { inputReply as runObserved, matchLines } from "./input-reply.ts";
