/**
 * A worker of the corpus benchmark's quick mode (bench/corpus-quick.ts): measures, in this one
 * process, each document the parent sends ({ document, scratch }) and answers with both tools'
 * results, or { error } when the measuring itself failed.
 */
import { measureInProcess } from "./corpus-in-process.ts";

process.on("message", async (message: { document: string; scratch: string }) => {
  try {
    process.send!(await measureInProcess(message.document, message.scratch));
  } catch (error) {
    process.send!({ error: String((error as Error)?.message ?? error).split("\n")[0]!.slice(0, 300) });
  }
});
