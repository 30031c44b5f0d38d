/**
 * Preloaded into a measured child (`node --import …/cpu-at-exit.js`, see `cpuAtExitFlags`): when the process
 * exits, it writes its own CPU time and peak RSS to stderr as one JSON line (stderr is a pipe, written
 * synchronously on Linux, so the line is complete even after `process.exit`).
 */
process.on('exit', () => {
  const usage = process.resourceUsage();
  process.stderr.write(`${JSON.stringify({ cpuAtExit: { userMs: usage.userCPUTime / 1000, systemMs: usage.systemCPUTime / 1000, maxRssKiB: usage.maxRSS } })}\n`);
});
