// Resolves the name PAYCTL_TEST_HOST to the IPv4 address in the file PAYCTL_TEST_HOST_ADDRESS, read at
// each lookup: a test moves the host during a run by rewriting the file, as a DNS record changes. Other
// names resolve as usual. Loaded with NODE_OPTIONS=--require.
const dns = require('node:dns');
const fs = require('node:fs');

const { PAYCTL_TEST_HOST: host, PAYCTL_TEST_HOST_ADDRESS: file } = process.env;
const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  if (hostname !== host) return lookup.call(dns, hostname, options, callback);
  const reply = typeof options === 'function' ? options : callback;
  const address = fs.readFileSync(file, 'utf8').trim();
  const all = typeof options === 'object' && options !== null && options.all;
  process.nextTick(() => (all ? reply(null, [{ address, family: 4 }]) : reply(null, address, 4)));
};
