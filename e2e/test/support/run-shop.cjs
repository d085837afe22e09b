// Runs the whole shop in its own Node process for the browser tests (used when jest runs without
// --experimental-vm-modules, which PGlite's dynamic imports need inside jest's VM).
// Usage: node run-shop.cjs <dataDir>; prints PERSONA_SHOP_URL=<url>; stops on SIGTERM or stdin end.
const { startShop } = require('@persona/launcher');

(async () => {
  const shop = await startShop({ dataDir: process.argv[2], port: 0 });
  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    try {
      await shop.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
  process.stdout.write(`\nPERSONA_SHOP_URL=${shop.url}\n`);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
