import { main } from './main.js';

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
