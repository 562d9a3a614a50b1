/**
 * How issue messages are written: plain texts for people, the contract's values quoted as JSON.
 * Each keyword definition holds its own messages (keywords/); these are the pieces they share, and
 * the message of the `false` schema, which belongs to no keyword.
 */

export const falseSchemaMessage = "no value is allowed here";

/** `1 item`, `2 items`. */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}

/** `a, b or c`. */
export function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** `text` cut after `max` characters. */
export function truncate(text: string, max = 200): string {
  // ASCII: one character beyond Latin-1 would make V8 hold the whole module text at two bytes a character.
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
