/**
 * The changelog beside the contract (`openapi/CHANGELOG.md`, which the generator ships in the
 * package): one entry per version naming each change with its JSON pointer, newest first.
 */
import type { VersionReport } from "./report.ts";

/** A CHANGELOG entry naming each change with its pointer, most severe first. */
export function changelogEntry(report: VersionReport, options: { date: string; baseLabel: string }): string {
  const lines = [`## ${report.nextVersion} (${options.date})`, "", `${capitalise(report.classification)} release: the contract changed since ${options.baseLabel} (package ${report.previousVersion}).`];
  for (const bump of ["major", "minor", "patch"] as const) {
    const changes = report.changes.filter((c) => c.bump === bump);
    if (changes.length === 0) continue;
    lines.push("", `### ${bump === "major" ? "Breaking (major)" : bump === "minor" ? "Added (minor)" : "Documentation (patch)"}`, "");
    // Markdown would take `<...>` for HTML and a backtick for the end of the pointer's code span.
    for (const change of changes) lines.push(`- ${change.message.replace(/[<>]/g, (c) => (c === "<" ? "&lt;" : "&gt;"))} — \`${change.pointer.replace(/`/g, "'")}\``);
  }
  return `${lines.join("\n")}\n`;
}

/** Adds (or replaces, when that version is already there) the entry below the title of the changelog. */
export function updateChangelog(existing: string | undefined, entry: string, version: string): string {
  const title = "# Changelog\n\nVersions of the generated package, derived from contract changes by `npm run version:contract`.\n";
  const text = existing && existing.trim() ? existing.replace(/\r\n?/g, "\n") : title;
  const heading = new RegExp(`^## ${version.replace(/[.+]/g, "\\$&")} .*$`, "m");
  const match = heading.exec(text);
  if (match) {
    const next = text.slice(match.index + match[0].length).search(/^## /m);
    const end = next === -1 ? text.length : match.index + match[0].length + next;
    return `${text.slice(0, match.index)}${entry}\n${text.slice(end).replace(/^\n+/, "")}`.replace(/\n+$/, "\n");
  }
  const firstEntry = text.search(/^## /m);
  if (firstEntry === -1) return `${text.replace(/\n*$/, "\n\n")}${entry}`;
  return `${text.slice(0, firstEntry)}${entry}\n${text.slice(firstEntry)}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
