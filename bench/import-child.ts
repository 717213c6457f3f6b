// One import-time sample: imports the given modules in order in this fresh process and prints the
// elapsed milliseconds. Spawned by import-time.ts, one process per sample.
const specifiers = process.argv.slice(2)
const started = performance.now()
for (const specifier of specifiers) await import(specifier)
process.stdout.write(`${JSON.stringify({ ms: performance.now() - started })}\n`)
