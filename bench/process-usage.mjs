// Preloaded into a benchmarked child process (`node --import ./bench/process-usage.mjs ...`): when the process
// exits, writes its own resource usage (CPU seconds, peak RSS) as one JSON object to the file named by
// TRADEBOT_BENCH_USAGE_FILE, so a bench can report a whole process's CPU and memory, not only its wall time.
import process from 'node:process';
import { writeFileSync } from 'node:fs';

const file = process.env['TRADEBOT_BENCH_USAGE_FILE'];
if (file !== undefined && file !== '') {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
    writeFileSync(file, JSON.stringify({ cpuSeconds, maxRssKB: usage.maxRSS }));
  });
}
