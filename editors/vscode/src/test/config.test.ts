import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  DEFAULT_SERVER_PATH,
  LANGUAGE_IDS,
  RESTART_SETTINGS,
  documentSelector,
  expandPath,
  initializationOptions,
  resolveLaunch,
} from "../config";

const ctx = { workspaceFolder: "/ws/project", homeDir: "/home/ada" };

describe("resolveLaunch", () => {
  it("starts `symfuse lsp` with no options when nothing is set", () => {
    const launch = resolveLaunch({}, ctx);
    assert.equal(launch.command, DEFAULT_SERVER_PATH);
    assert.deepEqual(launch.args, ["lsp"]);
    assert.deepEqual(launch.initializationOptions, {});
    assert.deepEqual(launch.warnings, []);
  });

  it("treats VS Code's defaults like nothing set", () => {
    const launch = resolveLaunch(
      {
        serverPath: "symfuse",
        extraArgs: [],
        include: [],
        exclude: [],
        maxFileSize: null,
        resultLimit: null,
        languages: [],
      },
      ctx,
    );
    assert.equal(launch.command, "symfuse");
    assert.deepEqual(launch.args, ["lsp"]);
    assert.deepEqual(launch.initializationOptions, {});
    assert.deepEqual(launch.warnings, []);
  });

  it("passes every setting through to the command and the initializationOptions", () => {
    const launch = resolveLaunch(
      {
        serverPath: "${workspaceFolder}/.venv/bin/symfuse",
        extraArgs: ["--log-file", "~/symfuse.log", "-v"],
        include: ["src/**"],
        exclude: ["**/vendor/**", "build/**"],
        maxFileSize: 500000,
        resultLimit: 50,
        languages: ["Python", "go"],
      },
      ctx,
    );
    assert.equal(launch.command, "/ws/project/.venv/bin/symfuse");
    assert.deepEqual(launch.args, ["lsp", "--log-file", "/home/ada/symfuse.log", "-v"]);
    assert.deepEqual(launch.initializationOptions, {
      include: ["src/**"],
      exclude: ["**/vendor/**", "build/**"],
      maxFileSize: 500000,
      resultLimit: 50,
      languages: ["python", "go"],
    });
    assert.deepEqual(launch.warnings, []);
    assert.deepEqual(
      launch.documentSelector.map((f) => `${f.scheme}:${f.language}`),
      ["file:python", "file:go", "untitled:python", "untitled:go"],
    );
  });

  it("keeps `lsp` first so extra args cannot replace the subcommand", () => {
    const launch = resolveLaunch({ extraArgs: ["--tcp", "--port", "2087"] }, ctx);
    assert.deepEqual(launch.args, ["lsp", "--tcp", "--port", "2087"]);
  });

  it("falls back to defaults and warns on bad settings", () => {
    const launch = resolveLaunch(
      {
        serverPath: 42,
        extraArgs: "--verbose",
        include: ["ok/**", 7, ""],
        exclude: null,
        maxFileSize: -1,
        resultLimit: 2.5,
        languages: ["klingon"],
      },
      ctx,
    );
    assert.equal(launch.command, DEFAULT_SERVER_PATH);
    assert.deepEqual(launch.args, ["lsp"]);
    assert.deepEqual(launch.initializationOptions, { include: ["ok/**"], languages: ["klingon"] });
    assert.equal(launch.warnings.length, 7, launch.warnings.join("\n"));
    assert.ok(launch.warnings.some((w) => w.includes("symfuse.serverPath")));
    assert.ok(launch.warnings.some((w) => w.includes("symfuse.extraArgs")));
    assert.ok(launch.warnings.some((w) => w.includes("symfuse.maxFileSize")));
    assert.ok(launch.warnings.some((w) => w.includes("symfuse.resultLimit")));
    assert.ok(launch.warnings.some((w) => w.includes("klingon")));
    // An unmappable language list still syncs every language rather than none.
    assert.equal(launch.documentSelector.length, documentSelector(undefined).length);
  });

  it("trims the server path and leaves a bare name for PATH lookup", () => {
    assert.equal(resolveLaunch({ serverPath: "  symfuse-dev  " }, ctx).command, "symfuse-dev");
  });
});

describe("expandPath", () => {
  it("expands ~ and ${userHome}", () => {
    assert.equal(expandPath("~", ctx), "/home/ada");
    assert.equal(expandPath("~/bin/symfuse", ctx), "/home/ada/bin/symfuse");
    assert.equal(expandPath("${userHome}/x", ctx), "/home/ada/x");
  });

  it("leaves ${workspaceFolder} alone without a workspace", () => {
    assert.equal(expandPath("${workspaceFolder}/s", { homeDir: "/h" }), "${workspaceFolder}/s");
  });

  it("does not touch a ~ in the middle", () => {
    assert.equal(expandPath("/opt/a~b", ctx), "/opt/a~b");
  });
});

describe("initializationOptions", () => {
  it("omits unset keys so the server defaults hold", () => {
    assert.deepEqual(initializationOptions({ resultLimit: 10 }), { resultLimit: 10 });
    assert.deepEqual(initializationOptions({ exclude: ["x/**"] }), { exclude: ["x/**"] });
  });
});

describe("documentSelector", () => {
  it("covers every symfuse language by default, for files and untitled buffers", () => {
    const filters = documentSelector(undefined);
    const languages = new Set(filters.map((f) => f.language));
    for (const ids of Object.values(LANGUAGE_IDS)) {
      for (const id of ids) {
        assert.ok(languages.has(id), id);
      }
    }
    assert.deepEqual(new Set(filters.map((f) => f.scheme)), new Set(["file", "untitled"]));
  });

  it("maps symfuse names to VS Code language ids", () => {
    const ids = documentSelector(["tsx", "bash", "objc"]).filter((f) => f.scheme === "file");
    assert.deepEqual(
      ids.map((f) => f.language),
      ["typescriptreact", "shellscript", "objective-c", "objective-cpp"],
    );
  });
});

describe("RESTART_SETTINGS", () => {
  it("lists every setting contributed in package.json except the trace level", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const manifest = require("../../package.json") as {
      contributes: { configuration: { properties: Record<string, unknown> } };
    };
    const contributed = Object.keys(manifest.contributes.configuration.properties)
      .filter((k) => k !== "symfuse.trace.server")
      .sort();
    assert.deepEqual([...RESTART_SETTINGS].sort(), contributed);
  });
});
