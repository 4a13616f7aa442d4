/**
 * The Skills panel (SEP-2640): shown only when the connected server declares
 * `io.modelcontextprotocol/skills` in its capabilities (the legacy era's `initialize` answer or the
 * modern era's `server/discover`, both read through the client's `getServerCapabilities()`). It lists
 * every skill of `skills/list`; a chosen skill shows its frontmatter and files (its manifest, or for a
 * dynamic skill a `resources/directory/read` walk when `directoryRead` is declared); a chosen file is
 * read and checked against the manifest. Server strings are set as text only (dom.ts `el`).
 */
import type { Client } from "@modelcontextprotocol/client";
import { byId, el, json } from "./dom.ts";
import {
  listAllSkills,
  readSkillFile,
  skillDirectory,
  walkSkillFiles,
  type FileRead,
  type SkillEntry,
  type SkillFileEntry,
} from "./skill-data.ts";

/** The extension's key under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

let connected: Client | undefined;
let directoryRead = false;
const skills = new Map<string, SkillEntry>();
/** The chosen skill's files, by URI. */
let files = new Map<string, SkillFileEntry>();
/** Bumped at each choice: an answer to an earlier one is not shown. */
let choice = 0;

/** The extension's settings the server declares, or undefined when it does not declare the extension. */
function declared(client: Client | undefined): Record<string, unknown> | undefined {
  const extensions = (client?.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  const settings = extensions?.[SKILLS_EXTENSION];
  if (settings === undefined || settings === null) return undefined;
  return typeof settings === "object" ? (settings as Record<string, unknown>) : {};
}

const text = (value: unknown, fallback: string): string => (typeof value === "string" ? value : fallback);

/**
 * Shows the Skills panel for `client`: its skills listed (every page) when the server declares the
 * extension, else the panel hidden. `undefined` (disconnected) empties and hides it.
 */
export async function showSkills(client: Client | undefined): Promise<void> {
  connected = client;
  choice++;
  skills.clear();
  files = new Map();
  const list = byId("skills");
  list.replaceChildren();
  delete list.dataset.loaded;
  byId("skill-detail").replaceChildren();
  byId("skill-detail").hidden = true;
  byId("skill-file").replaceChildren();
  const settings = declared(client);
  byId("skills-card").hidden = settings === undefined;
  if (!client || !settings) return;
  directoryRead = settings.directoryRead === true;
  try {
    const { skills: entries, dropped } = await listAllSkills(client);
    if (connected !== client) return;
    for (const entry of entries) skills.set(entry.uri, entry);
    list.replaceChildren(
      ...[...skills.values()].map((entry) => el("li", {}, skillButton(entry))),
      skills.size === 0 ? el("li", { className: "muted" }, "The server lists no skills.") : "",
      dropped ? el("li", { className: "error" }, `${dropped} entries not of the extension's shape left out`) : "",
    );
    list.dataset.loaded = "true";
  } catch (error) {
    if (connected === client) list.replaceChildren(el("li", { className: "error" }, String(error)));
  }
}

function skillButton(entry: SkillEntry): HTMLElement {
  const count =
    entry.files === "dynamic" ? "dynamic" : `${entry.files.length} file${entry.files.length === 1 ? "" : "s"}`;
  return el(
    "button",
    { type: "button", "data-skill": entry.uri, title: entry.uri },
    el("strong", {}, text(entry.frontmatter.name, "(no name)")),
    " ",
    el("span", { className: "badge", "data-files": count }, count),
    el("span", { className: "skill-line" }, text(entry.frontmatter.description, "")),
    el("code", { className: "skill-line" }, entry.uri),
  );
}

/** A file's path in its skill (`references/POLICY.md`), or its whole URI when it is not below the skill. */
function pathIn(skillUri: string, uri: string): string {
  const root = `${skillDirectory(skillUri)}/`;
  return uri.startsWith(root) ? uri.slice(root.length) : uri;
}

async function chooseSkill(uri: string): Promise<void> {
  const client = connected;
  const entry = skills.get(uri);
  if (!client || !entry) return;
  const mine = ++choice;
  for (const button of byId("skills").querySelectorAll<HTMLButtonElement>("button[data-skill]"))
    button.setAttribute("aria-pressed", String(button.dataset.skill === uri));
  const fileList = el("ul", { id: "skill-files", className: "list", "aria-label": "Skill files" });
  const note = el("p", { id: "skill-files-note", className: "muted" });
  const detail = byId("skill-detail");
  detail.replaceChildren(
    el("h3", { id: "skill-name" }, text(entry.frontmatter.name, "(no name)")),
    el("p", { className: "muted" }, text(entry.frontmatter.description, "")),
    el("p", {}, el("code", {}, entry.uri)),
    el("h4", {}, "Frontmatter"),
    el("pre", { id: "skill-frontmatter" }, json(entry.frontmatter)),
    el("h4", {}, "Files"),
    note,
    fileList,
  );
  detail.hidden = false;
  byId("skill-file").replaceChildren();
  let found: readonly SkillFileEntry[];
  if (entry.files !== "dynamic") found = entry.files;
  else if (!directoryRead) {
    found = [{ uri: entry.uri }];
    note.textContent = "Dynamic: the server offers no directory reads, so only SKILL.md is known.";
  } else {
    note.textContent = "Dynamic: no digests published; files found by resources/directory/read…";
    try {
      found = await walkSkillFiles(client, entry.uri);
    } catch (error) {
      if (mine === choice) fileList.replaceChildren(el("li", { className: "error" }, String(error)));
      return;
    }
    if (mine !== choice) return;
    note.textContent = "Dynamic: no digests published; files found by resources/directory/read.";
  }
  files = new Map(found.map((file) => [file.uri, file]));
  fileList.replaceChildren(...[...files.values()].map((file) => el("li", {}, fileButton(entry.uri, file))));
  fileList.dataset.loaded = "true";
}

function fileButton(skillUri: string, file: SkillFileEntry): HTMLElement {
  return el(
    "button",
    { type: "button", "data-skill-file": file.uri, title: file.uri },
    pathIn(skillUri, file.uri),
    file.size === undefined ? "" : el("span", { className: "muted" }, ` ${file.size} B`),
  );
}

function shownRead(uri: string, read: FileRead): HTMLElement[] {
  const className = read.verdict === "verified" ? "ok" : read.verdict === "mismatch" ? "error" : "muted";
  return [
    el("h4", {}, el("code", {}, uri)),
    el("p", { id: "skill-file-verdict", className, "data-verdict": read.verdict }, read.note),
    read.text === undefined
      ? el("p", { id: "skill-file-blob" }, `(${read.mimeType ?? "binary"}, ${read.size} bytes, not shown)`)
      : el("pre", { id: "skill-file-text" }, read.text),
  ];
}

async function chooseFile(uri: string): Promise<void> {
  const client = connected;
  const file = files.get(uri);
  if (!client || !file) return;
  const mine = ++choice;
  for (const button of byId("skill-detail").querySelectorAll<HTMLButtonElement>("button[data-skill-file]"))
    button.setAttribute("aria-pressed", String(button.dataset.skillFile === uri));
  const target = byId("skill-file");
  target.replaceChildren(el("p", { className: "muted" }, "Reading…"));
  try {
    const read = await readSkillFile(client, file);
    if (mine === choice) target.replaceChildren(...shownRead(uri, read));
  } catch (error) {
    if (mine === choice) target.replaceChildren(el("p", { className: "error", role: "alert" }, String(error)));
  }
}

byId("skills").addEventListener("click", (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-skill]");
  if (button) void chooseSkill(button.dataset.skill!);
});
byId("skill-detail").addEventListener("click", (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-skill-file]");
  if (button) void chooseFile(button.dataset.skillFile!);
});
