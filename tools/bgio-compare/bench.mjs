// Load generator for boardgame.io, to set beside `beurs bench`: N concurrent clients, each
// playing matches of the stand-in game (game.mjs) through the Lobby REST API and four
// boardgame.io `Client`s over socket.io, one per seat, making random legal moves.
//
// Usage: node bench.mjs [--clients 16] [--seconds 10] [--pin] [--polling]
//   --pin      server under `taskset -c 0`, this process (all its threads) on CPU 1
//   --polling  socket.io's default transports (long-polling, then the WebSocket upgrade)
//              instead of WebSocket only
// It starts server.mjs itself, so the server's CPU time is its own, and stops it at the end
// (BGIO_SERVER_NODE_ARGS adds node flags to the server, e.g. --cpu-prof).
import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

// boardgame.io's development checks and logging off, on both sides. It reads NODE_ENV as it
// loads, so game.mjs (which loads it) is imported only after this line.
process.env.NODE_ENV = 'production';
const { TulipStandIn, GAME_NAME } = await import('./game.mjs');
const require = createRequire(import.meta.url);
// `import 'boardgame.io/client'` fails in Node (a directory import): load the CJS build.
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');

const SEATS = 4;
const MATCH_STALL_MS = 30_000;

function parseArgs(argv) {
  const args = { clients: 16, seconds: 10, pin: false, polling: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const number = () => {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} needs a positive number`);
      return value;
    };
    if (flag === '--clients') args.clients = Math.floor(number());
    else if (flag === '--seconds') args.seconds = number();
    else if (flag === '--pin') args.pin = true;
    else if (flag === '--polling') args.polling = true;
    else if (flag === '--help' || flag === '-h') {
      console.log('node bench.mjs [--clients N] [--seconds S] [--pin] [--polling]');
      process.exit(0);
    } else throw new Error(`unknown argument ${flag}`);
  }
  return args;
}

/** CPU time (user + system, all threads) of a process, in seconds, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3; utime is field 14, stime field 15, in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Starts server.mjs on a free port; resolves once it listens. */
function startServer(pin) {
  const script = fileURLToPath(new URL('./server.mjs', import.meta.url));
  // Extra node flags for the server, e.g. BGIO_SERVER_NODE_ARGS=--cpu-prof to profile it.
  const nodeArgs = (process.env.BGIO_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const node = [process.execPath, ...nodeArgs, script, '--port', '0'];
  const [cmd, args] = pin ? ['taskset', ['-c', '0', ...node]] : [node[0], node.slice(1)];
  // taskset execs node in place, so the child's pid is the server's.
  const child = spawn(cmd, args, {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (stderr.length > 100_000) stderr = stderr.slice(-50_000);
  });
  child.serverErrors = () => stderr;
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not listen within 15 s')), 15_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1] });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening: ${stderr}`));
    });
  });
}

const percentile = (sorted, fraction) =>
  sorted.length === 0 ? 0 : sorted[Math.round((sorted.length - 1) * fraction)];

class Tally {
  moves = 0;
  matches = 0;
  finished = 0;
  stalled = 0;
  moveLatencies = [];
  lobbyLatencies = { create: [], join: [] };
  httpErrors = new Map();
}

async function lobby(base, path, body, tally, route) {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  tally.lobbyLatencies[route].push(performance.now() - started);
  if (!response.ok) {
    const key = `${route} ${response.status}`;
    tally.httpErrors.set(key, (tally.httpErrors.get(key) ?? 0) + 1);
    throw new Error(`${route} ${path}: ${response.status} ${text}`);
  }
  return JSON.parse(text);
}

/** Plays one match to its end (or the deadline) with one `Client` per seat. */
function playMatch({ base, matchID, credentials, deadline, tally, polling }) {
  return new Promise((resolve) => {
    const seats = [];
    let closed = false;
    let lastProgress = performance.now();
    const finish = (outcome) => {
      if (closed) return;
      closed = true;
      clearInterval(watchdog);
      for (const seat of seats) {
        seat.unsubscribe();
        seat.client.stop();
      }
      resolve(outcome);
    };
    const watchdog = setInterval(() => {
      if (performance.now() - lastProgress > MATCH_STALL_MS) finish('stalled');
    }, 1000);
    let gameover = false;
    let over = false; // gameover seen, or the deadline reached at a turn
    const maybeFinish = () => {
      if (over && seats.every((seat) => seat.pending === null)) finish(gameover ? 'finished' : 'cut');
    };

    for (let s = 0; s < SEATS; s++) {
      const playerID = String(s);
      const client = Client({
        game: TulipStandIn,
        numPlayers: SEATS,
        matchID,
        playerID,
        credentials: credentials[s],
        debug: false,
        multiplayer: SocketIO({
          server: base,
          socketOpts: polling ? undefined : { transports: ['websocket'] },
        }),
      });
      const seat = { client, pending: null, actedAt: -1, unsubscribe: () => {} };
      seats.push(seat);
      const onState = (state) => {
        if (closed || !state) return;
        // Our move is committed once a state with a newer _stateID arrives.
        if (seat.pending && state._stateID > seat.pending.stateID) {
          tally.moveLatencies.push(performance.now() - seat.pending.at);
          tally.moves += 1;
          seat.pending = null;
          lastProgress = performance.now();
        }
        if (state.ctx.gameover !== undefined) {
          gameover = true;
          over = true;
        }
        if (!over && state.ctx.currentPlayer === playerID && seat.pending === null
            && state._stateID > seat.actedAt) {
          if (performance.now() >= deadline) {
            over = true;
          } else {
            const legal = TulipStandIn.ai.enumerate(state.G, state.ctx, playerID);
            const choice = legal[Math.floor(Math.random() * legal.length)];
            seat.actedAt = state._stateID;
            seat.pending = { stateID: state._stateID, at: performance.now() };
            // Not from inside the store's notification: on the next microtask.
            queueMicrotask(() => {
              if (!closed) client.moves[choice.move](...choice.args);
            });
          }
        }
        maybeFinish();
      };
      client.start();
      seat.unsubscribe = client.subscribe(onState);
    }
  });
}

/** One bench client: create a match, join the 4 seats, play it, again until the deadline. */
async function benchClient({ base, deadline, tally, polling }) {
  while (performance.now() < deadline) {
    const { matchID } = await lobby(base, `/games/${GAME_NAME}/create`, { numPlayers: SEATS }, tally, 'create');
    const credentials = [];
    for (let s = 0; s < SEATS; s++) {
      const joined = await lobby(
        base,
        `/games/${GAME_NAME}/${matchID}/join`,
        { playerID: String(s), playerName: `bench ${s}` },
        tally,
        'join',
      );
      credentials.push(joined.playerCredentials);
    }
    tally.matches += 1;
    const outcome = await playMatch({ base, matchID, credentials, deadline, tally, polling });
    if (outcome === 'finished') tally.finished += 1;
    if (outcome === 'stalled') tally.stalled += 1;
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const { child, base } = await startServer(args.pin);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  // SIGTERM first (the server closes and exits, so `node --cpu-prof` and the like can write
  // their files), SIGKILL if it has not gone within 2 s; SIGKILL too if this process exits.
  const killNow = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.on('exit', killNow);
  const stopServer = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(killNow, 2000);
    await exited;
    clearTimeout(timer);
  };
  try {
    if (args.pin) {
      // All of this process's threads (-a) onto CPU 1.
      execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
    }
    console.log(
      `boardgame.io bench: ${args.clients} clients, ${args.seconds} s, server ${base} (pid ${child.pid})` +
        `${args.pin ? ', server on CPU 0, clients on CPU 1' : ''}` +
        `, socket.io ${args.polling ? 'polling + upgrade' : 'WebSocket only'}`,
    );
    const tally = new Tally();
    const serverCpuBefore = cpuSeconds(child.pid);
    const selfCpuBefore = process.cpuUsage();
    const started = performance.now();
    const deadline = started + args.seconds * 1000;
    const progress = setInterval(() => {
      const elapsed = (performance.now() - started) / 1000;
      process.stderr.write(
        `\r  ${elapsed.toFixed(1).padStart(5)} s  ${String(tally.moves).padStart(8)} moves  ` +
          `${(tally.moves / elapsed).toFixed(1).padStart(8)} moves/s`,
      );
    }, 1000);
    const results = await Promise.allSettled(
      Array.from({ length: args.clients }, () =>
        benchClient({ base, deadline, tally, polling: args.polling }),
      ),
    );
    clearInterval(progress);
    process.stderr.write('\n');
    const elapsed = (performance.now() - started) / 1000;
    const serverCpuAfter = cpuSeconds(child.pid);
    const selfCpu = process.cpuUsage(selfCpuBefore);
    const selfCpuSeconds = (selfCpu.user + selfCpu.system) / 1e6;

    const ms = (x) => `${x.toFixed(2)} ms`;
    console.log(`\n## ${GAME_NAME} (4 seats, ${args.clients} clients, ${elapsed.toFixed(1)} s)`);
    console.log(`committed moves: ${tally.moves}  (${(tally.moves / elapsed).toFixed(1)} moves/s)`);
    console.log(
      `matches: ${tally.matches} started, ${tally.finished} played to the end` +
        `${tally.stalled ? `, ${tally.stalled} stalled (no progress in ${MATCH_STALL_MS / 1000} s)` : ''}`,
    );
    if (serverCpuBefore !== null && serverCpuAfter !== null && tally.moves > 0) {
      const cpu = serverCpuAfter - serverCpuBefore;
      console.log(
        `server CPU: ${cpu.toFixed(2)} s in ${elapsed.toFixed(1)} s (${((100 * cpu) / elapsed).toFixed(0)} % of one core), ` +
          `${((cpu * 1e6) / tally.moves).toFixed(0)} µs per committed move`,
      );
    } else {
      console.log('server CPU: not measured (needs Linux /proc and at least one move)');
    }
    console.log(
      `bench (client) process CPU: ${selfCpuSeconds.toFixed(2)} s (${((100 * selfCpuSeconds) / elapsed).toFixed(0)} % of one core)` +
        `${selfCpuSeconds / elapsed > 0.9 ? '  <- near one core: the clients may be the limit' : ''}`,
    );
    console.log('| what | count | p50 | p95 | p99 | max |\n|---|---|---|---|---|---|');
    const rows = [
      ['move (make → update with new _stateID)', tally.moveLatencies],
      [`POST /games/${GAME_NAME}/create`, tally.lobbyLatencies.create],
      [`POST /games/${GAME_NAME}/{matchID}/join`, tally.lobbyLatencies.join],
    ];
    for (const [label, values] of rows) {
      values.sort((a, b) => a - b);
      console.log(
        `| ${label} | ${values.length} | ${ms(percentile(values, 0.5))} | ${ms(percentile(values, 0.95))} | ` +
          `${ms(percentile(values, 0.99))} | ${ms(values.at(-1) ?? 0)} |`,
      );
    }
    const failures = results.filter((r) => r.status === 'rejected');
    const errors = [...tally.httpErrors].map(([key, n]) => `${key}: ${n}`);
    if (failures.length) errors.push(`${failures.length} clients failed, first: ${failures[0].reason?.message}`);
    const serverErrors = child.serverErrors().split('\n').filter((line) => line.includes('ERROR'));
    if (serverErrors.length) errors.push(`server logged ${serverErrors.length} errors, first: ${serverErrors[0]}`);
    console.log(`errors: ${errors.length ? errors.join('; ') : 'none'}`);
    if (failures.length || tally.stalled) process.exitCode = 1;
  } finally {
    await stopServer();
  }
}

main().then(
  () => process.exit(),
  (error) => {
    console.error(`bench: ${error.message}`);
    process.exit(1);
  },
);
