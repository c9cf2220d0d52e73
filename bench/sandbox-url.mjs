// The URL a `payctl sandbox start --port 0` child prints once it listens, for the benchmarks
// that start one in a process of its own.
export function sandboxUrl(child) {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
}
