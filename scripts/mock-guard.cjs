// Preloaded into Prism by scripts/mock.mjs: Prism ends when the process that started it ends, however
// it ended (a SIGKILL included), as that closes the IPC channel between them.
if (typeof process.send === "function") {
  process.on("disconnect", () => process.exit(0));
  // The channel alone must not keep Prism running, nor stop it from ending on its own.
  process.channel?.unref();
}
