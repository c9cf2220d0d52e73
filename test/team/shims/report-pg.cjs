// Says on stderr, as the process ends, whether node-postgres's bundle was loaded.
process.on('exit', () => {
  const loaded = Object.keys(require.cache).some((file) => /[\\/]vendor[\\/]pg\.cjs$/.test(file));
  process.stderr.write(`\npg loaded: ${loaded}\n`);
});
