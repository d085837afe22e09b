// The preset's globalSetup: probe PostgreSQL, RabbitMQ and Redis once for the whole jest run; every
// test file reads the answers (`describeWithPostgres` and the like) instead of probing again.
const { probeServers } = require('./dist/servers.js');

module.exports = async function globalSetup() {
  await probeServers();
};
