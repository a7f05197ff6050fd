/**
 * Settings -> server launch: the pure part of the extension.
 *
 * Nothing here imports `vscode`, so the unit tests run under plain node. The
 * extension reads the `symfuse.*` settings into a `RawSettings` record and
 * asks `resolveLaunch` for the command, its arguments, the
 * initializationOptions and the documents the client should sync; any problem
 * with a setting comes back as a warning and the setting falls back to its
 * default, so a typo never stops the server from starting.
 */

import * as os from "os";
import * as path from "path";

/** The `symfuse.*` settings as VS Code hands them over (unvalidated). */
export interface RawSettings {
  serverPath?: unknown;
  extraArgs?: unknown;
  include?: unknown;
  exclude?: unknown;
  maxFileSize?: unknown;
  resultLimit?: unknown;
  languages?: unknown;
}

/** The initializationOptions `symfuse lsp` reads; absent keys mean "server default". */
export interface InitializationOptions {
  include?: string[];
  exclude?: string[];
  maxFileSize?: number;
  resultLimit?: number;
  languages?: string[];
}

/** One entry of a vscode-languageclient document selector. */
export interface DocumentFilter {
  scheme: string;
  language: string;
}

export interface Launch {
  command: string;
  args: string[];
  initializationOptions: InitializationOptions;
  documentSelector: DocumentFilter[];
  /** Human-readable notes about settings that were ignored. */
  warnings: string[];
}

export interface LaunchContext {
  /** The first workspace folder's path, for `${workspaceFolder}`; undefined without one. */
  workspaceFolder?: string;
  /** The user's home directory, for `~`; defaults to `os.homedir()`. */
  homeDir?: string;
}

export const DEFAULT_SERVER_PATH = "symfuse";

/**
 * symfuse language names (indexer/languages.py) -> VS Code language ids, so the
 * client only syncs documents the server can index.
 */
export const LANGUAGE_IDS: Readonly<Record<string, readonly string[]>> = {
  python: ["python"],
  javascript: ["javascript", "javascriptreact"],
  typescript: ["typescript"],
  tsx: ["typescriptreact"],
  go: ["go"],
  rust: ["rust"],
  java: ["java"],
  c: ["c"],
  cpp: ["cpp"],
  csharp: ["csharp"],
  ruby: ["ruby"],
  php: ["php"],
  kotlin: ["kotlin"],
  swift: ["swift"],
  scala: ["scala"],
  lua: ["lua"],
  bash: ["shellscript"],
  dart: ["dart"],
  elixir: ["elixir"],
  haskell: ["haskell"],
  ocaml: ["ocaml"],
  zig: ["zig"],
  julia: ["julia"],
  r: ["r"],
  perl: ["perl"],
  objc: ["objective-c", "objective-cpp"],
  groovy: ["groovy"],
  erlang: ["erlang"],
  elm: ["elm"],
  solidity: ["solidity"],
  proto: ["proto", "proto3"],
  clojure: ["clojure"],
  fsharp: ["fsharp"],
  nim: ["nim"],
  gleam: ["gleam"],
  cuda: ["cuda-cpp"],
  hcl: ["terraform", "hcl"],
};

/** Expand a leading `~` and every `${workspaceFolder}` / `${userHome}` in a path setting. */
export function expandPath(value: string, ctx: LaunchContext = {}): string {
  const home = ctx.homeDir ?? os.homedir();
  let out = value;
  if (out === "~") {
    out = home;
  } else if (out.startsWith("~/") || out.startsWith("~\\")) {
    out = path.join(home, out.slice(2));
  }
  out = out.split("${userHome}").join(home);
  if (ctx.workspaceFolder !== undefined) {
    out = out.split("${workspaceFolder}").join(ctx.workspaceFolder);
  }
  return out;
}

function stringList(name: string, value: unknown, warnings: string[]): string[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    warnings.push(`symfuse.${name} must be a list of strings; ignored`);
    return [];
  }
  const out: string[] = [];
  for (const item of value) {
    if (typeof item === "string" && item.trim() !== "") {
      out.push(item);
    } else {
      warnings.push(`symfuse.${name}: ignored entry ${JSON.stringify(item)} (not a non-empty string)`);
    }
  }
  return out;
}

function positiveInt(name: string, value: unknown, warnings: string[]): number | undefined {
  if (value === undefined || value === null || value === "") {
    return undefined;
  }
  if (typeof value === "number" && Number.isInteger(value) && value > 0) {
    return value;
  }
  warnings.push(`symfuse.${name} must be a positive integer; using the server default`);
  return undefined;
}

/** The executable to run: `symfuse.serverPath`, expanded, or "symfuse". */
export function serverCommand(raw: RawSettings, ctx: LaunchContext = {}, warnings: string[] = []): string {
  const value = raw.serverPath;
  if (value === undefined || value === null) {
    return DEFAULT_SERVER_PATH;
  }
  if (typeof value !== "string" || value.trim() === "") {
    warnings.push(`symfuse.serverPath must be a non-empty string; using "${DEFAULT_SERVER_PATH}"`);
    return DEFAULT_SERVER_PATH;
  }
  return expandPath(value.trim(), ctx);
}

/** The arguments after the executable: `lsp`, then `symfuse.extraArgs` (expanded). */
export function serverArgs(raw: RawSettings, ctx: LaunchContext = {}, warnings: string[] = []): string[] {
  const extra = stringList("extraArgs", raw.extraArgs, warnings).map((a) => expandPath(a, ctx));
  return ["lsp", ...extra];
}

/** The initializationOptions: only the settings the user set, so the server's defaults hold. */
export function initializationOptions(raw: RawSettings, warnings: string[] = []): InitializationOptions {
  const opts: InitializationOptions = {};
  const include = stringList("include", raw.include, warnings);
  const exclude = stringList("exclude", raw.exclude, warnings);
  const languages = stringList("languages", raw.languages, warnings).map((l) => l.trim().toLowerCase());
  const maxFileSize = positiveInt("maxFileSize", raw.maxFileSize, warnings);
  const resultLimit = positiveInt("resultLimit", raw.resultLimit, warnings);
  if (include.length > 0) {
    opts.include = include;
  }
  if (exclude.length > 0) {
    opts.exclude = exclude;
  }
  if (maxFileSize !== undefined) {
    opts.maxFileSize = maxFileSize;
  }
  if (resultLimit !== undefined) {
    opts.resultLimit = resultLimit;
  }
  if (languages.length > 0) {
    opts.languages = languages;
  }
  return opts;
}

/**
 * The documents to sync with the server: every language symfuse indexes, or
 * only the ones in `symfuse.languages`. Unknown language names are passed to the
 * server (it validates them) but cannot be mapped to a VS Code language id.
 */
export function documentSelector(languages: readonly string[] | undefined, warnings: string[] = []): DocumentFilter[] {
  const names = languages && languages.length > 0 ? languages : Object.keys(LANGUAGE_IDS);
  const ids: string[] = [];
  for (const name of names) {
    const mapped = LANGUAGE_IDS[name];
    if (mapped === undefined) {
      warnings.push(`symfuse.languages: "${name}" is not a language symfuse knows`);
      continue;
    }
    for (const id of mapped) {
      if (!ids.includes(id)) {
        ids.push(id);
      }
    }
  }
  if (ids.length === 0) {
    // Nothing mappable: sync every language rather than none.
    return documentSelector(undefined);
  }
  const filters: DocumentFilter[] = [];
  for (const scheme of ["file", "untitled"]) {
    for (const language of ids) {
      filters.push({ scheme, language });
    }
  }
  return filters;
}

/** Everything the extension needs to start `symfuse lsp` from the settings. */
export function resolveLaunch(raw: RawSettings, ctx: LaunchContext = {}): Launch {
  const warnings: string[] = [];
  const command = serverCommand(raw, ctx, warnings);
  const args = serverArgs(raw, ctx, warnings);
  const init = initializationOptions(raw, warnings);
  const selector = documentSelector(init.languages, warnings);
  return { command, args, initializationOptions: init, documentSelector: selector, warnings };
}

/** Settings whose change needs a server restart (all of ours but the trace level). */
export const RESTART_SETTINGS: readonly string[] = [
  "symfuse.serverPath",
  "symfuse.extraArgs",
  "symfuse.include",
  "symfuse.exclude",
  "symfuse.maxFileSize",
  "symfuse.resultLimit",
  "symfuse.languages",
];
