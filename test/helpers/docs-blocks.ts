/**
 * Type-checking markdown code blocks as modules a reader would copy: on TypeScript 5.9 through its API (each block
 * in a program of its own, so one block's imports lend no globals to another) and on TypeScript 7 through its CLI
 * (`test/typescript-7`, which has no API; one program for all blocks).
 *
 * Each block is written to `<dir>/<name>.mts` with `export {}` appended, so it is a module even when it imports
 * nothing. Errors are keyed by the block's `id` and name the markdown line (`<where> line <n>: <message>`).
 */
import { execFile } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";

const run = promisify(execFile);

/** A block to check: `where` names its markdown file, `line` the 1-based line of its opening fence. */
export interface CheckedBlock {
  readonly id: string;
  readonly where: string;
  readonly line: number;
  readonly code: string;
}

/** Markdown files under `dir` (recursive), skipping dot-folders (`.vitepress`) and node_modules. */
export function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".md"))
    .map((e) => join(e.parentPath, e.name))
    .filter(
      (file) =>
        !relative(dir, file)
          .split("/")
          .some((part) => part.startsWith(".") || part === "node_modules"),
    )
    .sort();
}

function writeBlocks(dir: string, blocks: readonly CheckedBlock[]): Map<string, CheckedBlock> {
  const byFile = new Map<string, CheckedBlock>();
  for (const block of blocks) {
    const file = join(dir, `${block.id}.mts`);
    writeFileSync(file, `${block.code}\nexport {};\n`);
    byFile.set(file, block);
  }
  return byFile;
}

function message(block: CheckedBlock, lineInBlock: number, text: string): string {
  return `${block.where} line ${block.line + lineInBlock}: ${text}`;
}

/** A compiler host that parses each file once for all the programs it serves (lib and library files repeat). */
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const cache = new Map<string, ts.SourceFile | undefined>();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!cache.has(fileName)) cache.set(fileName, getSourceFile(fileName, languageVersion, onError, shouldCreate));
    return cache.get(fileName);
  };
  return host;
}

/**
 * TypeScript 5.9 (this package's): every block alone in its own program. Only the block's own diagnostics count
 * (the library's are `npm run typecheck`'s). Returns the errors of each block by id, an empty list when it compiles.
 */
export function checkWithApi(
  dir: string,
  blocks: readonly CheckedBlock[],
  json: Record<string, unknown>,
): Map<string, string[]> {
  const { options, errors: optionErrors } = ts.convertCompilerOptionsFromJson(json, dir);
  if (optionErrors.length > 0) throw new Error(ts.flattenDiagnosticMessageText(optionErrors[0]!.messageText, "\n"));
  const host = cachingHost(options);
  const errors = new Map<string, string[]>();
  let previous: ts.Program | undefined;
  for (const [file, block] of writeBlocks(dir, blocks)) {
    const program = ts.createProgram([file], options, host, previous);
    previous = program;
    const source = program.getSourceFile(file)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    errors.set(
      block.id,
      diagnostics.map((d) =>
        message(
          block,
          d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1,
          ts.flattenDiagnosticMessageText(d.messageText, "\n"),
        ),
      ),
    );
  }
  return errors;
}

/**
 * TypeScript 7 through its CLI (`tsc`): one tsconfig.json listing every block, in `dir`. Errors outside the blocks
 * (a global option, the library) are keyed by "" so that they fail the check too.
 */
export async function checkWithCli(
  tsc: string,
  dir: string,
  blocks: readonly CheckedBlock[],
  json: Record<string, unknown>,
): Promise<Map<string, string[]>> {
  const byFile = writeBlocks(dir, blocks);
  const config = join(dir, "tsconfig.json");
  writeFileSync(config, JSON.stringify({ compilerOptions: json, files: [...byFile.keys()] }, null, 2));
  const errors = new Map<string, string[]>(blocks.map((b) => [b.id, []]));
  let output = "";
  try {
    await run(tsc, ["-p", config, "--pretty", "false"], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    output = `${failed.stdout ?? ""}${failed.stderr ?? ""}`;
    if (output.trim() === "") throw error;
  }
  // `path(line,col): error TSnnnn: message`, continuation lines indented.
  let last: string[] | undefined;
  for (const text of output.split("\n")) {
    const hit = /^(.+?)\((\d+),\d+\): error (TS\d+: .*)$/.exec(text);
    if (hit) {
      const block = byFile.get(join(dir, hit[1]!)) ?? byFile.get(hit[1]!);
      const list = block ? errors.get(block.id)! : (errors.get("") ?? errors.set("", []).get("")!);
      list.push(block ? message(block, Number(hit[2]), hit[3]!) : `${hit[1]}: ${hit[3]}`);
      last = list;
    } else if (text.startsWith(" ") && last) {
      last[last.length - 1] += `\n${text.trim()}`;
    } else if (text.trim() !== "") {
      (errors.get("") ?? errors.set("", []).get("")!).push(text);
      last = undefined;
    }
  }
  return errors;
}
