// A boardgame.io server for the stand-in game, in-memory storage, on 127.0.0.1.
// Usage: node server.mjs [--port N]   (or PORT=N; 0 = any free port)
// Prints "listening on http://127.0.0.1:PORT" once it accepts connections.
import { createRequire } from 'node:module';

// boardgame.io reads NODE_ENV as it loads: production (no dev checks, no info logging) unless
// set otherwise; game.mjs, which loads boardgame.io, is imported after this line.
process.env.NODE_ENV ||= 'production';
const { TulipStandIn } = await import('./game.mjs');
const require = createRequire(import.meta.url);
const { Server, Origins } = require('boardgame.io/server');

function portArg() {
  const at = process.argv.indexOf('--port');
  const raw = at >= 0 ? process.argv[at + 1] : process.env.PORT ?? '0';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`bad port: ${raw}`);
    process.exit(2);
  }
  return port;
}

// `Server` keeps matches in memory (its InMemory storage) unless FLATFILE_DIR is set.
delete process.env.FLATFILE_DIR;

const server = Server({ games: [TulipStandIn], origins: [Origins.LOCALHOST] });

// koa-socket-2 makes `app.listen(port, cb)` call the HTTP server's listen: add the host so
// that the server listens on the loopback address only.
const listen = server.app.listen.bind(server.app);
server.app.listen = (port, callback) => listen(port, '127.0.0.1', callback);

const { appServer } = await server.run(portArg());
console.log(`listening on http://127.0.0.1:${appServer.address().port}`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.kill({ appServer });
    process.exit(0);
  });
}
