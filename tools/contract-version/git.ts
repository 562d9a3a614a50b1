/**
 * The previous contract: a file path, or a git ref whose copy of the contract's folder is
 * extracted (`git archive`) into a temporary folder, so that a contract split over files loads too.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadContract, type LoadedContract } from "../../generator/load/contract.ts";

export interface Base {
  contract: LoadedContract;
  /** How the report names it: the file, or `<path> at <ref>`. */
  label: string;
  /** Removes the temporary folder (nothing for a file). */
  cleanup(): void;
}

export async function loadBase(base: string, specPath: string): Promise<Base> {
  if (fs.existsSync(base) && fs.statSync(base).isFile()) {
    return { contract: await loadContract(base), label: base, cleanup() {} };
  }
  const spec = path.resolve(specPath);
  const git = (args: string[], input?: Buffer) => execFileSync("git", args, { cwd: path.dirname(spec), input, maxBuffer: 256 * 1024 * 1024, stdio: ["pipe", "pipe", "pipe"] });
  let top: string;
  try {
    top = git(["rev-parse", "--show-toplevel"]).toString().trim();
    git(["rev-parse", "--verify", "--quiet", `${base}^{commit}`]);
  } catch {
    throw new Error(`--base ${base}: neither a file nor a git commit`);
  }
  const relative = path.relative(fs.realpathSync(top), fs.realpathSync(spec)).split(path.sep).join("/");
  const folder = path.posix.dirname(relative);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "contract-base-"));
  const cleanup = () => fs.rmSync(scratch, { recursive: true, force: true });
  try {
    const archive = execFileSync("git", ["archive", "--format=tar", base, "--", folder], { cwd: top, maxBuffer: 256 * 1024 * 1024 });
    execFileSync("tar", ["-x", "-f", "-", "-C", scratch], { input: archive });
    const file = path.join(scratch, ...relative.split("/"));
    if (!fs.existsSync(file)) throw new Error(`${relative} does not exist at ${base}`);
    return { contract: await loadContract(file), label: `${relative} at ${base}`, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
