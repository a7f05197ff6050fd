/**
 * The VS Code side: read the settings, start `symfuse lsp` over stdio with
 * vscode-languageclient, restart it when a setting that shapes the launch
 * changes. All decisions about the command line live in ./config.
 */

import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

import { RESTART_SETTINGS, RawSettings, resolveLaunch } from "./config";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;

function readSettings(): RawSettings {
  const cfg = vscode.workspace.getConfiguration("symfuse");
  return {
    serverPath: cfg.get("serverPath"),
    extraArgs: cfg.get("extraArgs"),
    include: cfg.get("include"),
    exclude: cfg.get("exclude"),
    maxFileSize: cfg.get("maxFileSize"),
    resultLimit: cfg.get("resultLimit"),
    languages: cfg.get("languages"),
  };
}

async function startClient(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const launch = resolveLaunch(readSettings(), { workspaceFolder: folder });
  for (const warning of launch.warnings) {
    output?.appendLine(`[settings] ${warning}`);
  }
  if (launch.warnings.length > 0) {
    void vscode.window.showWarningMessage(`symfuse: ${launch.warnings.join("; ")}`);
  }

  const executable = {
    command: launch.command,
    args: launch.args,
    transport: TransportKind.stdio,
    options: folder !== undefined ? { cwd: folder } : undefined,
  };
  const serverOptions: ServerOptions = { run: executable, debug: executable };
  const clientOptions: LanguageClientOptions = {
    documentSelector: launch.documentSelector,
    initializationOptions: launch.initializationOptions,
    outputChannel: output,
  };

  output?.appendLine(`[launch] ${launch.command} ${launch.args.join(" ")}`);
  client = new LanguageClient("symfuse", "symfuse", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    void vscode.window.showErrorMessage(
      `symfuse: could not start "${launch.command} ${launch.args.join(" ")}": ${message}. ` +
        "Install symfuse (pip install symfuse) or set symfuse.serverPath.",
    );
  }
}

async function stopClient(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined && running.isRunning()) {
    await running.stop();
  }
}

async function restartClient(): Promise<void> {
  await stopClient();
  await startClient();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("symfuse");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("symfuse.restartServer", restartClient),
    vscode.commands.registerCommand("symfuse.showOutput", () => output?.show()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (RESTART_SETTINGS.some((name) => event.affectsConfiguration(name))) {
        void restartClient();
      }
    }),
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
