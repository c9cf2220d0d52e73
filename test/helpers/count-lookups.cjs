// Counts a payctl process's address lookups: each dns.lookup appends the host's name to
// PAYCTL_TEST_LOOKUPS. Loaded with NODE_OPTIONS=--require, so a test sees how often a run asks the
// system's resolver, which no server can observe.
const dns = require('node:dns');
const fs = require('node:fs');

const log = process.env.PAYCTL_TEST_LOOKUPS;
const lookup = dns.lookup;
dns.lookup = function (hostname, ...rest) {
  fs.appendFileSync(log, `${hostname}\n`);
  return lookup.call(dns, hostname, ...rest);
};
