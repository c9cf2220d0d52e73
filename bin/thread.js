'use strict';
// The worker thread an export runs in (bin/dist.js, runInThread): payctl as on the
// main thread, with the same arguments.
require('./dist.js').loadBundle().exports.run(process.argv.slice(2));
